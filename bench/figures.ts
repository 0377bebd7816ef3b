// The figures of issues 15 and 26 and the closing table that sets each against its goal.
import { markdownTable } from './measure.ts';

/**
 * Issue 26: a whole run costs at most this multiple of a bare Playwright run of as many trivial tests (issue
 * 15's 1.1× was retired on purpose: the one-way run, judged before the worker starts, is worth more than 0.05 s).
 */
export const WHOLE_RUN_RATIO = 1.25;
/** Issue 15: a 100,000-project target adds at most this multiple of a bare fetch + JSON.parse of its lists. */
export const LARGE_LIST_RATIO = 1.5;
/** Issue 15: a failing clause costs at most Playwright's own worker restart plus this. */
export const FAILURE_MARGIN_MS = 100;
/** Issue 15: `npm test` within two minutes on a quiet 2-core machine. */
export const NPM_TEST_MS = 120_000;

/** Issue 36: the command line's and Playwright's share of a run (bin/, playwright.config.ts, tests/), in lines. */
export const CARRIER_LINES = 700;
/** Issue 36: the runs of the command, as processes, that `npm test` makes. */
export const PROCESS_RUNS = 40;

export interface Figure {
  name: string;
  measured: string;
  goal: string;
  /** Undefined when the figure could not be measured in this run. */
  met?: boolean;
}

const metCell = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : 'NOT MET');

export function closingTable(figures: Figure[]): string {
  return markdownTable(
    ['figure', 'measured', 'goal', 'met'],
    figures.map((f) => [f.name, f.measured, f.goal, metCell(f.met)]),
  );
}

export const ratio = (value: number) => `${value.toFixed(2)}×`;
