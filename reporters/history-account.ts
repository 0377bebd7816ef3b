import type { ClauseStatus } from './counts.ts';

// What a report says of the run history it was labelled against (reporters/history-labels.ts): the words of a
// clause's transition, and the earlier runs the page's strip shows. Types alone, so that the report's own type
// can name them.

/**
 * new: no earlier run of the target judged it; unchanged; regressed, fixed: as `diff` says of the last earlier
 * run that judged it; flaky: its outcome changed FLAKY_CHANGES times or more in the window, the suite, contracts
 * and document unchanged throughout; stale: this run left it out, and its last verdict is older than
 * CONFORMANCE_STALE_AFTER.
 */
export const TRANSITIONS = ['new', 'unchanged', 'regressed', 'fixed', 'flaky', 'stale'] as const;
export type Transition = (typeof TRANSITIONS)[number];

/** The report's account of the history it was labelled against. */
export interface HistoryAccount {
  /** The target's earlier runs the strip shows, oldest first; judgeChanged: judged by another suite, contracts or document than the run before it. */
  runs: { run: string; startedAt: string; judgeChanged: boolean }[];
  /** How many earlier runs of the target the history holds. */
  runsKept: number;
  /** The clauses by transition, for the summary's first lines. */
  regressed: string[];
  flaky: string[];
}

/** What a clause of a labelled report carries. */
export interface ClauseHistory {
  transition: Transition;
  /** Its outcome in each run of `history.runs`, null where that run did not have it. */
  recent: (ClauseStatus | null)[];
}
