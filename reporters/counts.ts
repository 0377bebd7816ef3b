import type { Outcome as JudgedStatus } from '../harness/judging/violations.ts';

// The statuses a clause ends with, and clauses counted by status: the one way the summary, the MUST line and each claimed profile count them.

/**
 * not-judged: the clause's test did not run in this run (a --grep, one shard, an interruption).
 * observed: an INFO clause whose observation was recorded; the document leaves it open, so it never passes.
 */
export type ClauseStatus = JudgedStatus | 'known-deviation' | 'not-judged' | 'observed';

export interface Counts {
  passed: number;
  failed: number;
  errored: number;
  notExercised: number;
  knownDeviations: number;
  notJudged: number;
  observed: number;
}

/** How many of these clauses have each status. */
export function countOf(clauses: { status: string }[]): Counts {
  const of = (status: string) => clauses.filter((c) => c.status === status).length;
  return {
    passed: of('passed'),
    failed: of('failed'),
    errored: of('errored'),
    notExercised: of('not-exercised'),
    knownDeviations: of('known-deviation'),
    notJudged: of('not-judged'),
    observed: of('observed'),
  };
}
