import { clause, test } from '../../harness/fixtures.ts';
import type { Target } from '../../harness/target.ts';
import type { Credential, Exchange } from '../../harness/exchange.ts';
import { ClauseCheck } from '../../harness/verdict.ts';
import { authStatusUnjudgeable, checkErrorAnswer, checkStatus } from '../common/rules.ts';

// Sections 5 and 7, for each of the two operations.

const operations: { name: 'signup-token' | 'projects'; request: (target: Target, credential: Credential) => Exchange }[] = [
  { name: 'signup-token', request: (t, c) => t.authToken(c) },
  { name: 'projects', request: (t, c) => t.projects('', c) },
];

for (const operation of operations) {
  test(...clause(`auth.${operation.name}.missing-header`), async ({ target, judge }) => {
    const check = new ClauseCheck(`auth.${operation.name}.missing-header`);
    checkStatus(check, operation.request(target, 'none'), 401);
    await judge(check);
  });

  test(...clause(`auth.${operation.name}.invalid-token`), async ({ target, judge }) => {
    const check = new ClauseCheck(`auth.${operation.name}.invalid-token`);
    checkStatus(check, operation.request(target, 'invalid'), 401);
    await judge(check);
  });

  test(...clause(`auth.${operation.name}.forbidden`), async ({ target, judge }) => {
    const check = new ClauseCheck(`auth.${operation.name}.forbidden`);
    if (target.config.forbiddenToken !== undefined) checkStatus(check, operation.request(target, 'forbidden'), 403);
    await judge(check);
  });

  test(...clause(`error.${operation.name}.401`), async ({ target, judge }) => {
    const check = new ClauseCheck(`error.${operation.name}.401`);
    for (const credential of ['none', 'invalid'] as const) {
      const exchange = operation.request(target, credential);
      const unjudgeable = authStatusUnjudgeable(exchange);
      if (unjudgeable !== undefined) check.cannotEvaluate(exchange, unjudgeable);
      else if (exchange.status === 401) checkErrorAnswer(check, exchange, 'AuthenticationRequired');
    }
    await judge(check);
  });

  test(...clause(`error.${operation.name}.403`), async ({ target, judge }) => {
    const check = new ClauseCheck(`error.${operation.name}.403`);
    if (target.config.forbiddenToken !== undefined) {
      const exchange = operation.request(target, 'forbidden');
      const unjudgeable = authStatusUnjudgeable(exchange);
      if (unjudgeable !== undefined) check.cannotEvaluate(exchange, unjudgeable);
      else if (exchange.status === 403) checkErrorAnswer(check, exchange, 'NoAccessError');
    }
    await judge(check);
  });
}
