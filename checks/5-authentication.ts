import type { Answers } from '../harness/judging/answers.ts';
import type { Operation } from '../harness/config/config.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';
import { authStatusErrored, checkStatus } from './rules.ts';

// Section 5: 401 without an authorization header or with an invalid token; 403 for a valid token that
// lacks the permission. The document names no permission per operation, so each forbidden credential is
// judged on the operations it was given for.

const missingHeader = (operation: Operation) => (answers: Answers, check: ClauseCheck) => checkStatus(check, answers.auth(operation, 'none'), 401);

const invalidToken = (operation: Operation) => (answers: Answers, check: ClauseCheck) => checkStatus(check, answers.auth(operation, 'invalid'), 401);

const forbidden = (operation: Operation) => (answers: Answers, check: ClauseCheck) => {
  for (const { placeholder, exchange } of answers.forbidden(operation)) {
    const letThrough = authStatusErrored(exchange) === undefined && exchange.status! < 300;
    // A credential that is let through may hold the permission after all: the configuration may be what is wrong.
    const hint = letThrough
      ? ` for ${placeholder}; it was let through, so if it holds the permission after all, give a token that lacks it`
      : ` for ${placeholder}`;
    checkStatus(check, exchange, 403, hint);
  }
};

export const AUTHENTICATION_CHECKS: Check[] = [
  { clause: 'auth.signup-token.missing-header', judge: missingHeader('signup-token') },
  { clause: 'auth.signup-token.invalid-token', judge: invalidToken('signup-token') },
  { clause: 'auth.signup-token.forbidden', judge: forbidden('signup-token') },
  { clause: 'auth.projects.missing-header', judge: missingHeader('projects') },
  { clause: 'auth.projects.invalid-token', judge: invalidToken('projects') },
  { clause: 'auth.projects.forbidden', judge: forbidden('projects') },
];
