import type { ClauseStatus, Counts } from './counts.ts';

// One mapping, written once, for every format (STYLE habit 26): what each status of a clause is called and how it
// counts in conformance.json, the page, summary.md, the console, JUnit, CTRF, and what it does to the verdict,
// the badge and the exit code. Every renderer reads this table; self-tests/reporters/status-mapping.test.ts checks
// each format's output against it and against the format's own schema.
//
// Every format counts as passed exactly what the report counts as passed, and as failed exactly what it counts as
// failed. A clause that could not be judged is JUnit's <error> and CTRF's `other` (neither has a word for "no
// verdict possible"). Everything else that is not a pass is skipped in both: a known deviation (a violation
// accepted, not a pass, not counted against the verdict), an observation (the document leaves it open), a clause
// not exercised or not judged. So JUnit's and CTRF's four counts are the report's, and agree with each other.

/** CTRF's five statuses. */
export type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

/** What a JUnit testcase holds for the status: nothing (a pass), a <failure>, an <error> or <skipped>. */
export type JunitElement = 'none' | 'failure' | 'error' | 'skipped';

export interface StatusMapping {
  /** Its word on the page, in summary.md and on the console. */
  label: string;
  /** Its key among the report's counts (`summary`, `summary.must`). */
  count: keyof Counts;
  /** The console's mark: ✘ where the run falls short, ~ an excused failure, - a clause not judged for a verdict. */
  mark: '✓' | '✘' | '~' | '-';
  junit: JunitElement;
  ctrf: CtrfStatus;
  /**
   * The verdict of a run whose every other clause passed, this one claimed, and so its exit code and its badge's
   * word (EXIT_CODE, badge.ts): a violation fails, an error has no verdict, a claimed clause not exercised or not
   * judged leaves the verdict partial, the rest pass.
   */
  verdict: 'pass' | 'fail' | 'error' | 'partial';
}

export const STATUSES: Record<ClauseStatus, StatusMapping> = {
  passed: { label: 'passed', count: 'passed', mark: '✓', junit: 'none', ctrf: 'passed', verdict: 'pass' },
  failed: { label: 'failed', count: 'failed', mark: '✘', junit: 'failure', ctrf: 'failed', verdict: 'fail' },
  errored: { label: 'errored', count: 'errored', mark: '✘', junit: 'error', ctrf: 'other', verdict: 'error' },
  'known-deviation': { label: 'known deviation', count: 'knownDeviations', mark: '~', junit: 'skipped', ctrf: 'skipped', verdict: 'pass' },
  'not-exercised': { label: 'not exercised', count: 'notExercised', mark: '-', junit: 'skipped', ctrf: 'skipped', verdict: 'partial' },
  'not-judged': { label: 'not judged', count: 'notJudged', mark: '-', junit: 'skipped', ctrf: 'skipped', verdict: 'partial' },
  observed: { label: 'observed', count: 'observed', mark: '-', junit: 'skipped', ctrf: 'skipped', verdict: 'pass' },
};

/** The statuses, in the table's order. */
export const CLAUSE_STATUS_ORDER = Object.keys(STATUSES) as ClauseStatus[];
