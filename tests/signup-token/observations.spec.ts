import { clause, test, requireReadable } from '../../harness/fixtures.ts';
import { observeFields } from '../../harness/observations.ts';
import { ClauseCheck } from '../../harness/verdict.ts';

// Behaviour the document leaves open, reported as observations and never judged.

test(...clause('signup-token.observe.unknown-secret'), async ({ target, judge }) => {
  const check = new ClauseCheck('signup-token.observe.unknown-secret');
  const exchange = target.token(target.unknownSecret);
  if (exchange.failure !== undefined) check.cannotEvaluate(exchange, exchange.failure);
  else check.count().observe({ status: exchange.status, contentType: exchange.contentType, errorName: (exchange.json as { name?: unknown } | undefined)?.name });
  await judge(check);
});

test(...clause('signup-token.observe.unknown-fields'), async ({ signupTokens, judge }) => {
  const check = new ClauseCheck('signup-token.observe.unknown-fields');
  const bodies = requireReadable(check, signupTokens.fetched).map((r) => r.body);
  await judge(check.count(bodies.length).observe({ fields: observeFields('public-signup-token', bodies).unknown }));
});

test(...clause('signup-token.observe.deprecated-fields'), async ({ signupTokens, judge }) => {
  const check = new ClauseCheck('signup-token.observe.deprecated-fields');
  const bodies = requireReadable(check, signupTokens.fetched).map((r) => r.body);
  await judge(check.count(bodies.length).observe({ fields: observeFields('public-signup-token', bodies).deprecated }));
});
