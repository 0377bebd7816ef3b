import type { Answers } from '../harness/judging/answers.ts';
import { field } from '../harness/contracts/fields.ts';
import { describeReceived } from '../harness/judging/received.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';
import { checkJsonAnswer } from './rules.ts';

// Section 4.1: GET /api/admin/invite-link/tokens/:token

function json(answers: Answers, check: ClauseCheck): void {
  for (const { exchange } of answers.signupTokens) checkJsonAnswer(answers, check, exchange);
}

function sameSecret(answers: Answers, check: ClauseCheck): void {
  for (const { secret, exchange } of answers.signupTokens) {
    for (const { body } of answers.readBodies(check, [exchange])) {
      check.count();
      for (const reading of [body.value, ...body.otherReadings]) {
        const returned = field(reading, 'secret');
        if (returned !== secret) check.violate(exchange, '/secret', describeReceived(returned), { kind: 'same-secret', secret });
      }
    }
  }
}

// "Behaviour when the token does not exist: not shown."
function unknownSecret(answers: Answers, check: ClauseCheck): void {
  const exchange = answers.token(answers.unknownSecret);
  if (exchange.failure !== undefined) return void check.erroredOn(exchange, exchange.failure);
  const read = answers.json(exchange);
  const errorName = read.ok ? field(read.body.value, 'name') : undefined;
  check.count().observe({ status: exchange.status, contentType: exchange.contentType, errorName });
}

export const SIGNUP_TOKEN_CHECKS: Check[] = [
  { clause: 'signup-token.response.json', judge: json },
  { clause: 'signup-token.response.same-secret', judge: sameSecret },
  { clause: 'signup-token.observe.unknown-secret', judge: unknownSecret },
];
