// Clauses counted by status: the one way the summary, the MUST line and each claimed profile count them.

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
