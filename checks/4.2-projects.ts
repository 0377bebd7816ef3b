import type { Answers } from '../harness/judging/answers.ts';
import { field } from '../harness/contracts/fields.ts';
import { isJsonMediaType, type Exchange } from '../harness/transport/exchange.ts';
import { describeReceived } from '../harness/judging/received.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';
import { checkJsonAnswer } from './rules.ts';

// Section 4.2: GET /api/admin/projects, with the optional boolean query parameter archived.

function json(answers: Answers, check: ClauseCheck): void {
  checkJsonAnswer(answers, check, answers.projects());
}

/** The top of a projects list (2.4); the fields of its projects are judged by the 2.4 to 2.6 clauses, archived lists included. */
function isProjectsList(body: unknown): boolean {
  return Number.isInteger(field(body, 'version')) && Array.isArray(field(body, 'projects'));
}

function checkArchivedAnswer(answers: Answers, check: ClauseCheck, exchange: Exchange): void {
  if (exchange.failure !== undefined) return void check.erroredOn(exchange, exchange.failure);
  const readable = answers.readable(exchange);
  // Without a readable answer to the plain request, a failing parameterised one proves nothing about the parameter.
  if (!readable.ok && !answers.readable(answers.projects()).ok)
    return void check.erroredOn(exchange, `${readable.reason}, and so is the request without the parameter`);
  check.count();
  if (!readable.ok) return void check.violate(exchange, '', readable.reason, { kind: 'projects-answer' });
  if (!isJsonMediaType(exchange.contentType)) check.violate(exchange, '', `content-type ${describeReceived(exchange.contentType)}`, { kind: 'media-type' });
  if (!isProjectsList(readable.body.value))
    check.violate(exchange, '', describeReceived(readable.body.value, '', readable.body.literals), { kind: 'projects-list' });
}

function archivedAccepted(answers: Answers, check: ClauseCheck): void {
  checkArchivedAnswer(answers, check, answers.projects('?archived=true'));
  checkArchivedAnswer(answers, check, answers.projects('?archived=false'));
}

// JSON text for anything but a string: String() would call a body's own "toString" or "valueOf" field, and throw.
const idText = (id: unknown) => (typeof id === 'string' ? id : (JSON.stringify(id) ?? 'undefined'));

// By body: answers that sent one text share one body, and its ids are listed once.
const idsOfBody = new WeakMap<object, string[] | undefined>();

function projectIds(answers: Answers, exchange: Exchange): string[] | undefined {
  const readable = answers.readable(exchange);
  if (!readable.ok) return undefined;
  if (!idsOfBody.has(readable.body)) {
    const projects = field(readable.body.value, 'projects');
    idsOfBody.set(readable.body, Array.isArray(projects) ? projects.map((p) => idText(field(p, 'id'))) : undefined);
  }
  return idsOfBody.get(readable.body);
}

const sameIds = (a: string[], b: string[]) => a === b || (a.length === b.length && a.every((id, i) => id === b[i]));

// A set: lists of a hundred thousand projects are compared here.
function only(ids: string[] | undefined, others: string[] | undefined): string[] | undefined {
  const excluded = new Set(others ?? []);
  return ids?.filter((id) => !excluded.has(id)).slice(0, 50);
}

// "Its effect and default: not shown."
function archivedEffect(answers: Answers, check: ClauseCheck): void {
  const exchanges = [answers.projects(), answers.projects('?archived=true'), answers.projects('?archived=false')];
  answers.readBodies(check, exchanges);
  const [none, yes, no] = exchanges.map((e) => projectIds(answers, e));
  check.count().observe({
    counts: { withoutParameter: none?.length, archivedTrue: yes?.length, archivedFalse: no?.length },
    onlyWithArchivedTrue: only(yes, none),
    missingWithArchivedTrue: only(none, yes),
    archivedFalseSameAsWithout: none !== undefined && no !== undefined && sameIds(none, no),
  });
}

export const PROJECTS_CHECKS: Check[] = [
  { clause: 'projects.response.json', judge: json },
  { clause: 'projects.archived.accepted', judge: archivedAccepted },
  { clause: 'projects.observe.archived-effect', judge: archivedEffect },
];
