import type { Answers } from '../harness/judging/answers.ts';
import type { Operation } from '../harness/config/config.ts';
import type { Exchange } from '../harness/transport/exchange.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';
import { authStatusErrored, checkErrorAnswer } from './rules.ts';

// Section 7 (with 2.7): every 401 is the error object named AuthenticationRequired, every 403 the one
// named NoAccessError, each application/json with a message. Only answers with that status are judged
// here; whether the status was right is section 5's clause.

function judgeAnswers(answers: Answers, check: ClauseCheck, exchanges: Exchange[], status: number, name: string): void {
  for (const exchange of exchanges) {
    const why = authStatusErrored(exchange);
    if (why !== undefined) check.erroredOn(exchange, why);
    else if (exchange.status === status) checkErrorAnswer(answers, check, exchange, name);
  }
}

const unauthorised = (operation: Operation) => (answers: Answers, check: ClauseCheck) =>
  judgeAnswers(answers, check, [answers.auth(operation, 'none'), answers.auth(operation, 'invalid')], 401, 'AuthenticationRequired');

const forbidden = (operation: Operation) => (answers: Answers, check: ClauseCheck) =>
  judgeAnswers(
    answers,
    check,
    answers.forbidden(operation).map((f) => f.exchange),
    403,
    'NoAccessError',
  );

export const ERROR_CHECKS: Check[] = [
  { clause: 'error.signup-token.401', judge: unauthorised('signup-token') },
  { clause: 'error.signup-token.403', judge: forbidden('signup-token') },
  { clause: 'error.projects.401', judge: unauthorised('projects') },
  { clause: 'error.projects.403', judge: forbidden('projects') },
];
