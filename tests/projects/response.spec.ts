import { clause, test, type Fetched } from '../../harness/fixtures.ts';
import { isJsonMediaType } from '../../harness/exchange.ts';
import { describeReceived } from '../../harness/schema-findings.ts';
import { ClauseCheck } from '../../harness/verdict.ts';
import { checkJsonAnswer } from '../common/rules.ts';

// Section 4.2: GET /api/admin/projects, with the optional boolean query parameter archived.

test(...clause('projects.response.json'), async ({ projectLists, judge }) => {
  const check = new ClauseCheck('projects.response.json');
  checkJsonAnswer(check, projectLists.plain.exchange);
  await judge(check);
});

/** The top of a projects list (2.4); the fields of its projects are judged by the 2.4 to 2.6 clauses, archived lists included. */
function isProjectsList(body: unknown): boolean {
  const list = body as { version?: unknown; projects?: unknown } | null;
  return list !== null && typeof list === 'object' && Number.isInteger(list.version) && Array.isArray(list.projects);
}

function checkArchivedAnswer(check: ClauseCheck, answer: Fetched, baseline: Fetched): void {
  const { exchange, readable } = answer;
  if (exchange.failure !== undefined) return void check.cannotEvaluate(exchange, exchange.failure);
  // Without a readable answer to the plain request, a failing parameterised one proves nothing about the parameter.
  if (!readable.ok && !baseline.readable.ok) return void check.cannotEvaluate(exchange, `${readable.reason}, and so is the request without the parameter`);
  check.count();
  if (!readable.ok) return void check.violate(exchange, '', readable.reason, 'a 200 answer with a projects list');
  if (!isJsonMediaType(exchange.contentType)) check.violate(exchange, '', `content-type ${describeReceived(exchange.contentType)}`, 'content-type application/json');
  if (!isProjectsList(readable.body)) check.violate(exchange, '', describeReceived(readable.body), 'a projects list: an integer version and a projects array');
}

test(...clause('projects.archived.accepted'), async ({ projectLists, judge }) => {
  const check = new ClauseCheck('projects.archived.accepted');
  checkArchivedAnswer(check, projectLists.archivedTrue, projectLists.plain);
  checkArchivedAnswer(check, projectLists.archivedFalse, projectLists.plain);
  await judge(check);
});
