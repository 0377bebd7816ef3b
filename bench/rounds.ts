// Runs taken in turns, so that load from elsewhere on the machine falls on every scenario alike, and the
// table of their phases.
import { markdownTable, median } from './measure.ts';
import { timePlaywright, type RunSpec, type RunTiming } from './playwright-run.ts';

export interface Scenario extends RunSpec {
  name: string;
}

export interface Measured {
  scenario: Scenario;
  runs: RunTiming[];
  /** Median wall time of the runs, in milliseconds. */
  medianMs: number;
  /** The run of median wall time (the lower one of an even count): its phases add up to the time shown. */
  typical: RunTiming;
}

function measured(scenario: Scenario, runs: RunTiming[]): Measured {
  const sorted = [...runs].sort((a, b) => a.wallMs - b.wallMs);
  return { scenario, runs, medianMs: median(runs.map((r) => r.wallMs)), typical: sorted[(sorted.length - 1) >> 1] };
}

/**
 * Each scenario `rounds` times, one run of each per round, after one run of each that is not counted;
 * `onRun` hears of each run as it ends, and `afterRound` measures whatever else belongs to the same rounds.
 */
export async function interleaved(
  rounds: number,
  scenarios: Scenario[],
  onRun: (name: string, run: RunTiming) => void = () => {},
  afterRound: () => Promise<void> = async () => {},
): Promise<Measured[]> {
  const runs = scenarios.map((): RunTiming[] => []);
  // The first run of a project Playwright has not seen compiles its TypeScript into Playwright's cache:
  // the floor's project is new to every bench, the suite's is not, and counting that run favoured the suite.
  for (const scenario of scenarios) onRun(`${scenario.name} (warm-up, not counted)`, await timePlaywright(scenario));
  for (let round = 0; round < rounds; round++) {
    for (const [i, scenario] of scenarios.entries()) {
      const run = await timePlaywright(scenario);
      runs[i].push(run);
      onRun(scenario.name, run);
    }
    await afterRound();
  }
  return scenarios.map((scenario, i) => measured(scenario, runs[i]));
}

export const seconds = (ms: number | undefined) => (ms === undefined ? '—' : (ms / 1000).toFixed(2));

/** The phases of a run as durations, in seconds, each from the end of the one before. */
function phaseCells(run: RunTiming): string[] {
  const p = run.phases;
  if (!p) return ['—', '—', '—', '—', '—', '—'];
  const span = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? undefined : to - from);
  return [
    seconds(p.configLoaded - run.spawnedAt),
    seconds(p.begin - p.configLoaded),
    seconds(span(p.begin, p.firstTestBegin)),
    seconds(span(p.firstTestBegin, p.lastTestEnd)),
    seconds(span(p.lastTestEnd, p.reportsWritten)),
    seconds(span(p.reportsWritten, run.spawnedAt + run.wallMs)),
  ];
}

const PHASE_HEADER = [
  'run',
  'median wall s',
  'runs s',
  'exit',
  'verdict',
  'start-up + config s',
  'global setup + test load s',
  'first worker up s',
  'tests s',
  'reports s',
  'exit s',
  'workers',
  'failed',
  'runner peak MiB',
];

export function phaseTable(rows: Measured[]): string {
  return markdownTable(
    PHASE_HEADER,
    rows.map(({ scenario, runs, medianMs, typical }) => [
      scenario.name,
      seconds(medianMs),
      runs.map((r) => seconds(r.wallMs)).join(' '),
      typical.timedOut ? 'killed' : String(typical.exitCode),
      typical.verdict ?? '—',
      ...phaseCells(typical),
      String(typical.phases?.workers ?? '—'),
      String(typical.phases?.failed ?? '—'),
      typical.phases?.runnerPeakMiB?.toFixed(0) ?? '—',
    ]),
  );
}
