// `npm run bench:whole-run [-- --npm-test]`: the figures of issues 15 and 26, each against
// its goal. Whole runs of the suite are timed against a bare Playwright project measured in the same
// rounds (bench/floor.ts); the external targets are the reference server with the benchmark's variants,
// in a process of its own (bench/target.ts).
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { closingTable, type Figure } from './figures.ts';
import { createFloor } from './floor.ts';
import { failureFigure, largeListFigure, wholeRunFigures } from './whole-run-figures.ts';
import { formatMs, loadAverage, machine, markdownTable, median } from './measure.ts';
import { timePlaywright, type RunTiming } from './playwright-run.ts';
import { bareFetchAndParse } from './bare.ts';
import { interleaved, phaseTable, seconds, type Measured, type Scenario } from './rounds.ts';
import { NPM_TEST_NOT_RUN, npmTest, RUNS_NOT_COUNTED } from './npm-test.ts';
import { carrierFigure, inProcessFigure } from './engine.ts';
import { killChildrenOnSignal, startListening, stop, type Listening } from './run.ts';
import { judgingPieces, targetEnv } from './setup-pieces.ts';
import { MANY_FAILURES, MANY_PROJECTS } from './variants.ts';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
// A run with many failing clauses restarts the worker for each: fewer rounds keep the bench within minutes.
const FAILING_REPEATS = Number(process.env.BENCH_FAILING_REPEATS ?? 3);
const LARGE_PROJECTS = 100_000;
const HUGE_MIB = 250;
const FLOOR_FAILING = 30;

const RUN_DEADLINE_MS = 120_000;
const HUGE_RUN_DEADLINE_MS = 300_000;
const TARGET_START_DEADLINE_MS = 180_000;

const say = (text: string) => process.stdout.write(text);
const progress = (name: string, run: { wallMs: number; exitCode: number | null; timedOut: boolean }) =>
  say(`  ${name}: ${seconds(run.wallMs)} s, ${run.timedOut ? 'killed at its deadline' : `exit ${run.exitCode}`}\n`);

const urlOf = (target: Listening) => /on (\S+)/.exec(target.line)![1];
const listMiB = (target: Listening) => Number(/list-bytes=(\d+)/.exec(target.line)![1]) / 2 ** 20;

async function withTarget<T>(args: string[], use: (url: string, target: Listening) => Promise<T>): Promise<T> {
  const target = await startListening(['bench/target.ts', ...args], TARGET_START_DEADLINE_MS);
  try {
    return await use(urlOf(target), target);
  } finally {
    await stop(target);
  }
}

/** Figures 1 and 2: the embedded and small external targets, the 100k target, the floor, and bare fetches between rounds. */
async function smallAndLarge(url: string, floorArgs: string[], bareMs: number[]): Promise<Measured[]> {
  const scenarios: Scenario[] = [
    { name: `bare Playwright, ${loadCatalogue().length} trivial passing tests`, args: floorArgs, deadlineMs: RUN_DEADLINE_MS },
    { name: 'embedded target', deadlineMs: RUN_DEADLINE_MS },
    { name: 'small external target', env: targetEnv(url), deadlineMs: RUN_DEADLINE_MS },
    {
      name: `external target, ${LARGE_PROJECTS.toLocaleString('en')} projects`,
      env: targetEnv(`${url}/variants/${MANY_PROJECTS}`),
      deadlineMs: RUN_DEADLINE_MS,
    },
  ];
  let round = 0;
  return interleaved(
    REPEATS,
    scenarios,
    (name, run) => progress(name, run),
    async () => {
      bareMs.push(await bareFetchAndParse(`${url}/variants/${MANY_PROJECTS}`));
      say(`  round ${++round}: bare fetch + JSON.parse of the lists ${formatMs(bareMs.at(-1)!)} ms\n`);
    },
  );
}

/** Figure 3: the same external target faithful and failing many clauses, and Playwright's own failing tests. */
function failing(url: string, floor: ReturnType<typeof createFloor>): Promise<Measured[]> {
  return interleaved(
    FAILING_REPEATS,
    [
      { name: 'small external target (0 failing)', env: targetEnv(url), deadlineMs: RUN_DEADLINE_MS },
      { name: `small external target, ${MANY_FAILURES.name}`, env: targetEnv(`${url}/variants/${MANY_FAILURES.name}`), deadlineMs: RUN_DEADLINE_MS },
      { name: `bare Playwright, ${FLOOR_FAILING} trivial passing tests`, args: floor.project('pass-30', FLOOR_FAILING, 0).args, deadlineMs: RUN_DEADLINE_MS },
      { name: `bare Playwright, ${FLOOR_FAILING} trivial failing tests`, args: floor.project('fail-30', 0, FLOOR_FAILING).args, deadlineMs: RUN_DEADLINE_MS },
    ],
    progress,
  );
}

function hugeListTable(run: RunTiming, target: Listening): string {
  const clauses = run.summary ? `${run.summary.passed} passed, ${run.summary.failed} failed, ${run.summary.errored} errored` : '—';
  return markdownTable(
    ['list MiB', 'projects', 'exit', 'verdict', 'clauses', 'wall s', 'runner peak MiB'],
    [
      [
        listMiB(target).toFixed(1),
        /projects=(\d+)/.exec(target.line)![1],
        run.timedOut ? 'killed' : String(run.exitCode),
        run.verdict ?? '—',
        clauses,
        seconds(run.wallMs),
        run.phases?.runnerPeakMiB?.toFixed(0) ?? '—',
      ],
    ],
  );
}

/** Figure 2, second half: a list of about 250 MiB, judged once. */
function hugeList(): Promise<{ figure: Figure; table: string }> {
  return withTarget(['--mib', String(HUGE_MIB)], async (url, target) => {
    const run = await timePlaywright({ env: targetEnv(`${url}/variants/${MANY_PROJECTS}`), deadlineMs: HUGE_RUN_DEADLINE_MS });
    progress(`list of ${listMiB(target).toFixed(0)} MiB`, run);
    const judged = run.exitCode === 0 && run.verdict === 'pass';
    if (!judged) say(`the ${HUGE_MIB} MiB run did not pass; its output ends:\n${run.output.slice(-3000)}\n`);
    const measured = `exit ${run.timedOut ? 'killed' : run.exitCode}, verdict ${run.verdict ?? 'none'}, ${seconds(run.wallMs)} s, runner peak ${run.phases?.runnerPeakMiB?.toFixed(0) ?? '?'} MiB`;
    const figure = { name: `a list of ${listMiB(target).toFixed(0)} MiB is judged without error`, measured, goal: 'exit 0, verdict pass', met: judged };
    return { figure, table: hugeListTable(run, target) };
  });
}

interface Results {
  small: Measured[];
  failures: Measured[];
  bareMs: number[];
  pieces: string;
  largeMiB: number;
  huge: { figure: Figure; table: string };
  npm?: { figure: Figure; runs: Figure; slowest: string };
  engine: Figure;
}

function printResults({ small, failures, bareMs, pieces, largeMiB, huge, npm, engine }: Results): void {
  say(
    `\nWhole runs (figures 1 and 2: ${REPEATS} rounds; figure 3: ${FAILING_REPEATS} rounds; scenarios in turns, the run of median wall time shown phase by phase)\n\n`,
  );
  say(`${phaseTable([...small, ...failures])}\n\n`);
  say(
    `Bare fetch + JSON.parse of the run's three lists (two of ${largeMiB.toFixed(1)} MiB), once per round: median ${formatMs(median(bareMs))} ms (${bareMs.map(formatMs).join(', ')})\n\n`,
  );
  say(`The judging in pieces (the suite's own functions in this process, one run each)\n\n${pieces}\n\n`);
  say(`The largest list\n\n${huge.table}\n\n`);
  if (npm) say(`npm test: the slowest tests (two workers run them side by side)\n\n${npm.slowest}\n\n`);
  const figures = [
    ...wholeRunFigures(small),
    largeListFigure(small, bareMs),
    huge.figure,
    failureFigure(failures, FLOOR_FAILING),
    npm?.figure ?? NPM_TEST_NOT_RUN,
    npm?.runs ?? RUNS_NOT_COUNTED,
    engine,
    carrierFigure(),
  ];
  say(`Figures against their goals (issues 15, 26 and 36)\n\n${closingTable(figures)}\n\n`);
}

async function main(): Promise<void> {
  const started = Date.now();
  killChildrenOnSignal();
  say(`machine: ${machine()}; ${loadAverage()}\n`);
  const floor = createFloor();
  const bareMs: number[] = [];
  const measured = await withTarget([String(LARGE_PROJECTS)], async (url, target) => ({
    small: await smallAndLarge(url, floor.project('pass-44', loadCatalogue().length, 0).args, bareMs),
    failures: await failing(url, floor),
    pieces: await judgingPieces([
      ['small external target', url],
      [`${LARGE_PROJECTS.toLocaleString('en')} projects`, `${url}/variants/${MANY_PROJECTS}`],
    ]),
    largeMiB: listMiB(target),
  }));
  const huge = await hugeList();
  const engine = await inProcessFigure();
  const npm = process.argv.includes('--npm-test') ? await npmTest() : undefined;
  floor.remove();
  printResults({ ...measured, bareMs, huge, npm, engine });
  say(`machine: ${machine()}\nbench took ${((Date.now() - started) / 1000).toFixed(0)} s; ${loadAverage()}\n`);
}

void main();
