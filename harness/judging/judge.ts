import { Answers, type JudgeInput } from './answers.ts';
import type { Recording } from '../recording/recording.ts';
import { ClauseCheck } from './violations.ts';

/**
 * One clause of the catalogue and how it is judged (checks/ holds them, one file per section): from the
 * answers by a function, or, for a clause the contracts name (their `clauses` annotations), from the schema
 * errors the contract attributes to it. The run and `verify` hand the judge its checks.
 */
export type Check = { clause: string; judge(answers: Answers, check: ClauseCheck): void } | { clause: string; schema: 'public-signup-token' | 'projects' };

/**
 * Every clause of the catalogue judged from one recording: a pure function of what the target answered
 * and what it was asked with. Each body is read once and each contract applied once, whatever the number
 * of clauses; a check that throws errors its own clause and no other.
 */
export function judge(recording: Recording, input: JudgeInput, checks: Check[]): ClauseCheck[] {
  const answers = new Answers(recording, input);
  return checks.map((c) => judgeClause(answers, c));
}

/** One clause judged from the answers; a check that throws errors its own clause. */
export function judgeClause(answers: Answers, c: Check): ClauseCheck {
  const check = new ClauseCheck(c.clause);
  try {
    if ('schema' in c) check.absorb(answers.schema(c.schema).get(c.clause) ?? new ClauseCheck(c.clause));
    else c.judge(answers, check);
  } catch (error) {
    check.crashed(error);
  }
  return check;
}
