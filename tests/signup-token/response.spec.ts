import { clause, test } from '../../harness/fixtures.ts';
import { describeReceived } from '../../harness/schema-findings.ts';
import { ClauseCheck } from '../../harness/verdict.ts';
import { checkJsonAnswer } from '../common/rules.ts';

// Section 4.1: GET /api/admin/invite-link/tokens/:token

test(...clause('signup-token.response.json'), async ({ signupTokens, judge }) => {
  const check = new ClauseCheck('signup-token.response.json');
  for (const { exchange } of signupTokens.fetched) checkJsonAnswer(check, exchange);
  await judge(check);
});

test(...clause('signup-token.response.same-secret'), async ({ signupTokens, judge }) => {
  const check = new ClauseCheck('signup-token.response.same-secret');
  for (const { secret, exchange, readable } of signupTokens.fetched) {
    if (!readable.ok) {
      check.cannotEvaluate(exchange, readable.reason);
      continue;
    }
    check.count();
    const returned = (readable.body as { secret?: unknown } | null)?.secret;
    if (returned !== secret) check.violate(exchange, '/secret', describeReceived(returned), `the secret named in the path, ${JSON.stringify(secret)}`);
  }
  await judge(check);
});
