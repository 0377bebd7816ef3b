import type { Answers } from '../harness/judging/answers.ts';
import { operationDrift, OPERATIONS } from '../harness/contracts/description-drift.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';
import { descriptionRequest } from '../harness/recording/plan.ts';

// Sections 4.1 and 4.2 against the target's own OpenAPI description, when the run fetched it: where the
// description says otherwise, observed and never judged. A description that cannot be read is observed too.

function drift(operation: keyof typeof OPERATIONS) {
  return (answers: Answers, check: ClauseCheck): void => {
    const at = answers.input.openapiPath;
    if (at === undefined) return;
    const { path, credential } = descriptionRequest(at);
    const exchange = answers.get(path, credential);
    const about = { path: at, status: exchange.status };
    check.count();
    if (exchange.failure !== undefined || exchange.status !== 200)
      return void check.observe({ description: { ...about, problem: exchange.failure ?? `answered ${exchange.status}` }, differences: [] });
    const read = answers.json(exchange);
    if (!read.ok) return void check.observe({ description: { ...about, problem: `not JSON: ${read.reason}` }, differences: [] });
    const info = (read.body.value as { info?: { title?: unknown; version?: unknown } } | null)?.info ?? {};
    const openapi = (read.body.value as { openapi?: unknown; swagger?: unknown }).openapi ?? (read.body.value as { swagger?: unknown }).swagger;
    const { described, differences } = operationDrift(read.body.value, operation);
    const operationText = `GET ${OPERATIONS[operation].path}`;
    check.observe({
      description: { ...about, openapi, title: info.title, version: info.version },
      operation: described ? operationText : `${operationText}: not described`,
      differences,
    });
  };
}

export const DESCRIPTION_OBSERVATIONS: Check[] = [
  { clause: 'signup-token.observe.description-drift', judge: drift('signup-token') },
  { clause: 'projects.observe.description-drift', judge: drift('projects') },
];
