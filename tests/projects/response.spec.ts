import { clause, test, type Fetched } from '../../harness/fixtures.ts';
import { validators } from '../../harness/validator.ts';
import { ClauseCheck } from '../../harness/verdict.ts';
import { checkJsonAnswer } from '../common/rules.ts';

// Section 4.2: GET /api/admin/projects, with the optional boolean query parameter archived.

test(...clause('projects.response.json'), async ({ projectLists, judge }) => {
  const check = new ClauseCheck('projects.response.json');
  checkJsonAnswer(check, projectLists.plain.exchange);
  await judge(check);
});

function checkArchivedAnswer(check: ClauseCheck, answer: Fetched, baseline: Fetched): void {
  const { exchange, readable } = answer;
  if (exchange.failure !== undefined) return void check.cannotEvaluate(exchange, exchange.failure);
  // Without a readable answer to the plain request, a failing parameterised one proves nothing about the parameter.
  if (!readable.ok && !baseline.readable.ok) return void check.cannotEvaluate(exchange, `${readable.reason}, and so is the request without the parameter`);
  check.count();
  if (!readable.ok) return void check.violate(exchange, '', readable.reason, 'a 200 answer with a projects list');
  const errors = validators().validate('projects', readable.body);
  if (errors.length > 0) {
    const first = errors[0];
    check.violate(exchange, first.instancePath, `${errors.length} schema violation(s), the first: ${first.message}`, 'a valid projects list (2.4)');
  }
}

test(...clause('projects.archived.accepted'), async ({ projectLists, judge }) => {
  const check = new ClauseCheck('projects.archived.accepted');
  checkArchivedAnswer(check, projectLists.archivedTrue, projectLists.plain);
  checkArchivedAnswer(check, projectLists.archivedFalse, projectLists.plain);
  await judge(check);
});
