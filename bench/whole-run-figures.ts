// Figures 1 to 3 of issues 15 and 26 from the rounds of bench/whole-run.ts. Each figure is computed within each
// round, from runs made one after the other, and the median over the rounds is shown: load from elsewhere
// on the machine drifts between rounds more than within one.
import { FAILURE_MARGIN_MS, LARGE_LIST_RATIO, WHOLE_RUN_RATIO, ratio, type Figure } from './figures.ts';
import { median } from './measure.ts';
import type { RunTiming } from './playwright-run.ts';
import type { Measured } from './rounds.ts';

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The median over rounds of `f` applied to the runs of the same round. */
function perRound(measured: Measured[], f: (...runs: RunTiming[]) => number): number {
  return median(measured[0].runs.map((_, round) => f(...measured.map((m) => m.runs[round]))));
}

/** A run that did not finish, or judged otherwise than expected, measures nothing. */
function sound(m: Measured, verdict: string | undefined): boolean {
  return m.runs.every((r) => !r.timedOut && (verdict === undefined || r.verdict === verdict));
}

/** [floor of 44, embedded, small external, 100k]: each whole run against the floor. */
export function wholeRunFigures([floor, embedded, external]: Measured[]): Figure[] {
  return [embedded, external].map((run) => {
    const value = perRound([run, floor], (a, b) => a.wallMs / b.wallMs);
    return {
      name: `whole run, ${run.scenario.name}, ÷ bare Playwright`,
      measured: `${ratio(value)} (medians ${s(run.medianMs)} and ${s(floor.medianMs)})`,
      goal: `≤ ${WHOLE_RUN_RATIO}×`,
      met: sound(run, 'pass') && sound(floor, undefined) ? value <= WHOLE_RUN_RATIO : undefined,
    };
  });
}

/** What the 100k lists add over the small external target, against the bare fetch + parse of the same lists in that round. */
export function largeListFigure([, , external, large]: Measured[], bareMs: number[]): Figure {
  const value = median(large.runs.map((r, round) => (r.wallMs - external.runs[round].wallMs) / bareMs[round]));
  const added = perRound([large, external], (a, b) => a.wallMs - b.wallMs);
  return {
    name: '100,000 projects: time added ÷ bare fetch + JSON.parse of the lists',
    measured: `${ratio(value)} (medians ${s(added)} added, ${s(median(bareMs))} bare)`,
    goal: `≤ ${LARGE_LIST_RATIO}×`,
    met: sound(large, 'pass') && sound(external, 'pass') ? value <= LARGE_LIST_RATIO : undefined,
  };
}

/** [0 failing, many failing, floor passing, floor failing]: a failing clause against Playwright's own worker restart. */
export function failureFigure(measured: Measured[], floorFailures: number): Figure {
  const [passing, failing] = measured;
  // Playwright restarts its worker for each failed test, whatever the report calls the clause.
  const failed = failing.typical.phases?.failed ?? 0;
  if (failed === 0)
    return {
      name: "cost of a failing clause beyond Playwright's worker restart",
      measured: 'no test failed against the failing target',
      goal: `≤ ${FAILURE_MARGIN_MS / 1000} s`,
    };
  const perClause = perRound(measured, (p, f) => (f.wallMs - p.wallMs) / failed);
  const restart = perRound(measured, (_p, _f, fp, ff) => (ff.wallMs - fp.wallMs) / floorFailures);
  const beyond = perRound(measured, (p, f, fp, ff) => (f.wallMs - p.wallMs) / failed - (ff.wallMs - fp.wallMs) / floorFailures);
  return {
    name: `cost of a failing clause (${failed} failing) beyond Playwright's worker restart`,
    measured: `${s(beyond)} (medians ${s(perClause)} a clause, ${s(restart)} a restart)`,
    goal: `≤ ${FAILURE_MARGIN_MS / 1000} s`,
    met: sound(failing, 'fail') && sound(passing, 'pass') ? beyond <= FAILURE_MARGIN_MS : undefined,
  };
}
