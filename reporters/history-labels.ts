import type { Freshness } from '../harness/config/freshness.ts';
import type { ConformanceReport } from './conformance-result.ts';
import { historyLine, sameJudge, type HistoryLine } from './history-line.ts';
import type { Transition } from './history-account.ts';
import { transitionOf } from './transition.ts';

// A target's report labelled against its earlier runs in the history: each clause's transition, and the last
// runs' outcomes the page draws as a strip. A pure function of the report and the lines; the verdict, the
// counts and every status stay as they were.

/** How many earlier runs the page's strip shows of each clause. */
export const STRIP_RUNS = 10;

/** A target's earlier runs in the history, oldest first, the window's length at most (this run being the last of it). */
export const earlierRuns = (lines: HistoryLine[], target: string, window: number) => lines.filter((l) => l.target.name === target).slice(-(window - 1));

/** The report with each clause's transition and recent outcomes, and the account of the history behind them. */
export function labelled(report: ConformanceReport, earlier: HistoryLine[], run: string, staleAfter?: Freshness): ConformanceReport {
  const now = historyLine(report, run, undefined);
  const strip = earlier.slice(-STRIP_RUNS);
  const offset = earlier.length - strip.length;
  const runs = strip.map((l, i) => ({
    run: l.run,
    startedAt: l.startedAt,
    judgeChanged: offset + i > 0 && !sameJudge(earlier[offset + i - 1], l),
  }));
  const clauses = report.clauses.map((c) => ({
    ...c,
    transition: transitionOf(c.id, earlier, now, staleAfter),
    recent: strip.map((l) => l.clauses[c.id] ?? null),
  }));
  const of = (t: Transition) => clauses.filter((c) => c.transition === t).map((c) => c.id);
  return { ...report, clauses, history: { runs, runsKept: earlier.length, regressed: of('regressed'), flaky: of('flaky') } };
}
