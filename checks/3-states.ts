import type { Answers } from '../harness/judging/answers.ts';
import { field } from '../harness/contracts/fields.ts';
import { describeReceived } from '../harness/judging/received.ts';
import { isExpired } from '../harness/contracts/expiry.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';

// Section 3: when a signup token's expiresAt lies in the past, enabled is false.

function expiredNotEnabled(answers: Answers, check: ClauseCheck): void {
  for (const { exchange, body } of answers.readBodies(
    check,
    answers.signupTokens.map((t) => t.exchange),
  )) {
    // Every reading counts: a body that repeats `enabled` is judged on each value a reader may take.
    for (const token of [body.value, ...body.otherReadings]) {
      const [expiresAt, enabled] = [field(token, 'expiresAt'), field(token, 'enabled')];
      if (!isExpired(expiresAt, exchange.startedAt)) continue;
      check.count();
      if (enabled === false) continue;
      const requested = new Date(exchange.startedAt).toISOString();
      check.violate(exchange, '/enabled', describeReceived(enabled), { kind: 'expired-not-enabled', expiresAt: String(expiresAt), requestedAt: requested });
    }
  }
}

export const STATE_CHECKS: Check[] = [{ clause: 'signup-token.state.expired-not-enabled', judge: expiredNotEnabled }];
