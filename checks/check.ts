import type { Answers } from '../harness/answers.ts';
import type { ClauseCheck } from '../harness/verdict.ts';

/**
 * One clause of the catalogue and how it is judged: from the answers by a function, or, for a clause the
 * contracts name (their `clauses` annotations), from the schema errors the contract attributes to it.
 */
export type Check = { clause: string; judge(answers: Answers, check: ClauseCheck): void } | { clause: string; schema: 'public-signup-token' | 'projects' };
