import type { Answers } from '../harness/judging/answers.ts';
import { field } from '../harness/contracts/fields.ts';
import { describeReceived } from '../harness/judging/received.ts';
import { isRfc3339DateTime } from '../harness/contracts/rfc3339.ts';
import type { ClauseCheck } from '../harness/judging/verdict.ts';
import type { Check } from '../harness/judging/judge.ts';

// Section 3: when a signup token's expiresAt lies in the past, enabled is false.

/**
 * Clocks differ between the suite and the target; a token that expired less than this long before the
 * request may still be live on the target's clock, so it is not counted as expired.
 */
const CLOCK_SKEW_MS = 60_000;

export function isExpired(token: { expiresAt?: unknown }, requestedAt: number): boolean {
  const { expiresAt } = token;
  if (typeof expiresAt !== 'string' || !isRfc3339DateTime(expiresAt)) return false;
  // Date.parse knows no leap second (23:59:60); a second earlier judges the same.
  return Date.parse(expiresAt.replace(/:60(?=[.Zz+-])/, ':59')) < requestedAt - CLOCK_SKEW_MS;
}

function expiredNotEnabled(answers: Answers, check: ClauseCheck): void {
  for (const { exchange, body } of answers.readBodies(
    check,
    answers.signupTokens.map((t) => t.exchange),
  )) {
    // Every reading counts: a body that repeats `enabled` is judged on each value a reader may take.
    for (const token of [body.value, ...body.otherReadings]) {
      const [expiresAt, enabled] = [field(token, 'expiresAt'), field(token, 'enabled')];
      if (!isExpired({ expiresAt }, exchange.startedAt)) continue;
      check.count();
      if (enabled === false) continue;
      const requested = new Date(exchange.startedAt).toISOString();
      check.violate(exchange, '/enabled', describeReceived(enabled), `false, since expiresAt ${String(expiresAt)} lies before the request (${requested})`);
    }
  }
}

export const STATE_CHECKS: Check[] = [{ clause: 'signup-token.state.expired-not-enabled', judge: expiredNotEnabled }];
