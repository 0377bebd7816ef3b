import type { Answers } from '../harness/judging/answers.ts';
import { operationDrift, OPERATIONS } from '../harness/contracts/description-drift.ts';
import { field } from '../harness/contracts/fields.ts';
import { isNode } from '../harness/contracts/validator.ts';
import type { NumberLiteral } from '../harness/json/json-literals.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';
import { descriptionRequest } from '../harness/recording/plan.ts';

// Sections 4.1 and 4.2 against the target's own OpenAPI description, when the run fetched it: where the
// description says otherwise, observed and never judged. A description that cannot be read is observed too,
// with what was received in its place: the body is the target's, and may be any JSON at all.

/** What a JSON value is, in words that quote no text of it (a body may hold secrets). */
function kindOf(value: unknown, literal: NumberLiteral | undefined): string {
  if (value === undefined) return 'absent';
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return `the number ${literal?.text ?? value}`;
  if (typeof value === 'string') return `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  return 'an object';
}

function drift(operation: keyof typeof OPERATIONS) {
  return (answers: Answers, check: ClauseCheck): void => {
    const at = answers.input.openapiPath;
    if (at === undefined) return;
    const { path, credential } = descriptionRequest(at);
    const exchange = answers.get(path, credential);
    const about = { path: at, status: exchange.status };
    const unread = (problem: string) => void check.observe({ description: { ...about, problem }, differences: [] });
    check.count();
    if (exchange.failure !== undefined || exchange.status !== 200) return unread(exchange.failure ?? `answered ${exchange.status}`);
    const read = answers.json(exchange);
    if (!read.ok) return unread(`not JSON: ${read.reason}`);
    const { value, literals } = read.body;
    if (!isNode(value)) return unread(`not an OpenAPI description: the body is ${kindOf(value, literals.get(''))}, where a description is an object`);
    const paths = field(value, 'paths');
    const info = field(value, 'info');
    const { described, differences } = operationDrift(value, operation);
    const operationText = `GET ${OPERATIONS[operation].path}`;
    check.observe({
      description: {
        ...about,
        openapi: field(value, 'openapi') ?? field(value, 'swagger'),
        title: field(info, 'title'),
        version: field(info, 'version'),
        ...(isNode(paths) ? {} : { problem: `its paths are ${kindOf(paths, literals.get('/paths'))}, where a description lists its operations in an object` }),
      },
      operation: described ? operationText : `${operationText}: not described`,
      differences,
    });
  };
}

export const DESCRIPTION_OBSERVATIONS: Check[] = [
  { clause: 'signup-token.observe.description-drift', judge: drift('signup-token') },
  { clause: 'projects.observe.description-drift', judge: drift('projects') },
];
