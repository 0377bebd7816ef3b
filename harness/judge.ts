import { loadChecks, type Check } from '../checks/index.ts';
import { Answers, type JudgeInput } from './answers.ts';
import type { Recording } from './recording.ts';
import { ClauseCheck } from './verdict.ts';

/**
 * Every clause of the catalogue judged from one recording: a pure function of what the target answered
 * and what it was asked with. Each body is read once and each contract applied once, whatever the number
 * of clauses; a check that throws errors its own clause and no other.
 */
export function judge(recording: Recording, input: JudgeInput, checks: Check[] = loadChecks()): ClauseCheck[] {
  const answers = new Answers(recording, input);
  return checks.map((c) => {
    const check = new ClauseCheck(c.clause);
    try {
      if ('schema' in c) check.absorb(answers.schema(c.schema).get(c.clause) ?? new ClauseCheck(c.clause));
      else c.judge(answers, check);
    } catch (error) {
      check.crashed(error);
    }
    return check;
  });
}
