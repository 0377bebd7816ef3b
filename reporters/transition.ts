import { isStale, type Freshness } from '../harness/config/freshness.ts';
import { REGRESSIONS, statusChange, type ChangeKind } from './change.ts';
import type { ClauseStatus } from './counts.ts';
import type { Transition } from './history-account.ts';
import { sameJudge, type HistoryLine } from './history-line.ts';

// A clause's transition: what its outcome in this run is, set against the target's earlier runs in the history
// (CONFORMANCE_HISTORY). A pure function of those runs' lines and this run's; the comparison of two outcomes is
// the one `diff` and the baseline make (change.ts statusChange). A label never changes a verdict.

/** How many changes of outcome, in a window judged alike, make a clause flaky (TestGrid's and Allure's sense). */
export const FLAKY_CHANGES = 3;

/** A failure is a failure, excused by a known deviation or not: a deviation added or ended is no flake. */
const outcomeOf = (status: ClauseStatus) => (status === 'known-deviation' ? 'failed' : status);

/** The earlier runs judged by the same suite, contracts and document as this one, back to the last change of judge. */
function sameJudgeTail(earlier: HistoryLine[], now: HistoryLine): HistoryLine[] {
  let from = earlier.length;
  while (from > 0 && sameJudge(earlier[from - 1], from === earlier.length ? now : earlier[from])) from -= 1;
  return earlier.slice(from);
}

/** How many times the clause's outcome changed along these runs, runs that did not judge it passed over. */
export function outcomeChanges(id: string, runs: HistoryLine[]): number {
  const outcomes = runs
    .map((l) => l.clauses[id])
    .filter((s): s is ClauseStatus => s !== undefined && s !== 'not-judged')
    .map(outcomeOf);
  return outcomes.filter((o, i) => i > 0 && o !== outcomes[i - 1]).length;
}

/** The last earlier run that judged the clause. */
const lastJudged = (id: string, earlier: HistoryLine[]) => earlier.filter((l) => l.clauses[id] !== undefined && l.clauses[id] !== 'not-judged').at(-1);

/** How the clause changed since the last earlier run that judged it, as `diff` says it (change.ts); undefined when it did not. */
export function changeSince(id: string, earlier: HistoryLine[], now: HistoryLine): ChangeKind | undefined {
  const last = lastJudged(id, earlier);
  const status = now.clauses[id];
  return last === undefined || status === undefined || status === 'not-judged' ? undefined : statusChange(last.clauses[id], status);
}

/** The transition of one clause: `earlier`, the target's runs before this one, oldest first; `now`, this run's line. */
export function transitionOf(id: string, earlier: HistoryLine[], now: HistoryLine, staleAfter?: Freshness): Transition {
  const status = now.clauses[id];
  const last = lastJudged(id, earlier);
  if (last === undefined) return 'new';
  if (status === undefined || status === 'not-judged')
    return staleAfter !== undefined && isStale(last.startedAt, now.startedAt, staleAfter) ? 'stale' : 'unchanged';
  if (outcomeChanges(id, [...sameJudgeTail(earlier, now), now]) >= FLAKY_CHANGES) return 'flaky';
  const kind = changeSince(id, earlier, now);
  if (kind !== undefined && REGRESSIONS.includes(kind)) return 'regressed';
  return kind === 'fixed' ? 'fixed' : 'unchanged';
}
