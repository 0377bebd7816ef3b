import { ConfigError } from '../harness/files/config-error.ts';
import { forTheLog } from '../harness/files/visible.ts';
import { ciOf, judgeRun, type JudgingEnd } from '../run/engine.ts';
import { isFleet, mayNarrow, PROJECTS_AT_MOST, projectsOf } from '../run/fleet.ts';
import { TERMINAL, type Output } from '../run/output.ts';
import { loadRun, type Run } from '../run/prepare.ts';
import { FleetReplays } from '../run/replays.ts';
import { refuseConfiguration, ReportsUnwritten, startRun } from '../run/report-folder.ts';
import { streamRun, type RunEnd } from '../run/report-run.ts';
import type { RunResult } from '../run/result.ts';

// The Playwright run's state in its runner, where the configuration, global setup and the reporter all run: the
// run read once (the configuration), its judging (global setup), and how it ended (the reporter). The engine
// (run/) does the work; nothing here decides a verdict. The workers get only what their tests replay.

/** What the Playwright configuration needs of the run. */
export interface RunShape {
  reportDir: string;
  /** One Playwright project per target, by name; none for a single target or a fleet (run/fleet.ts). */
  projects?: string[];
  runTimeoutMs: number;
}

/** A fleet's run streamed in global setup: its result, the line that says why it stopped, and each clause's replay. */
export interface Streamed {
  result: RunResult;
  said?: string;
  replays: FleetReplays;
}

interface State {
  run: Run;
  startedAt: number;
  release: () => void;
  /**
   * Whether global setup writes the reports as each target's judging ends (run/report-run.ts streamRun): a fleet
   * whose command line cannot narrow its tests, so that the tests Playwright chooses are every clause.
   */
  streams: boolean;
  /** The judging's end, once global setup started it; for a run that streams, its end. */
  judging?: Promise<JudgingEnd>;
  streaming?: Promise<Streamed>;
  /** The judging's end, once it is over; for a run that streams, its end. */
  judged?: JudgingEnd;
  streamed?: Streamed;
  stop: AbortController;
  /** The run's lines, held until Playwright's own are out: the run's summary closes the output. */
  output: Output & { flush(): void; drop(): void };
}

let state: State | undefined;

/** The run as the configuration read it; global setup and the reporter take the same reading. */
export function thisRun(): State {
  if (state === undefined) throw new Error('the run was not read: run the suite through its Playwright configuration');
  return state;
}

/** Why Playwright's own options cannot carry this run, when they cannot. */
export function optionsProblem(argv: string[], run: Run): string | undefined {
  // Playwright's own --shard, given to Playwright directly, would split one run's tests and send every request in each shard.
  if (argv.some((arg) => arg === '--shard' || arg.startsWith('--shard=')))
    return "Playwright's --shard splits a run's tests; the suite splits its targets: set CONFORMANCE_SHARD=i/n, or give --shard=i/n to admin-api-conformance";
  // A fleet has no project per target for --project to select.
  if (isFleet(run) && argv.some((arg) => arg === '--project' || arg.startsWith('--project=')))
    return `--project selects one of at most ${PROJECTS_AT_MOST} targets; this run has ${run.targets.length}, one test per clause for them all: give CONFORMANCE_TARGETS only the targets to judge`;
  return undefined;
}

/**
 * Reads the run's configuration once, in the runner, and takes its report folder. A configuration error ends
 * the run here with one line and exit code 2, nothing sent, the folder taken so that no earlier verdict stands.
 */
export function readRun(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): RunShape {
  // A listing (`--list`) judges nothing: the run is read for its projects, and no folder is taken.
  const listing = argv.includes('--list');
  const cwd = process.cwd();
  try {
    const run = loadRun(env, cwd);
    const problem = optionsProblem(argv, run);
    if (problem !== undefined) throw new ConfigError(problem);
    if (!listing)
      state = {
        run,
        startedAt: Date.now(),
        release: startRun(run, TERMINAL),
        streams: isFleet(run) && !mayNarrow(argv),
        stop: new AbortController(),
        output: held(),
      };
    return { reportDir: run.reportDir, projects: projectsOf(run), runTimeoutMs: run.targets[0].runTimeoutMs };
  } catch (error) {
    if (error instanceof ReportsUnwritten) {
      process.stderr.write(`conformance: no verdict: ${error.message}\n`);
      process.exit(3);
    }
    if (!(error instanceof ConfigError)) throw error;
    if (listing) process.stderr.write(`conformance: configuration error: ${error.message}\n`);
    else refuseConfiguration(error, env, cwd, TERMINAL);
    process.exit(2);
  }
}

/** Lines held until Playwright's own are out. */
function held(): State['output'] {
  const lines: [NodeJS.WriteStream, string][] = [];
  return {
    out: (text) => void lines.push([process.stdout, forTheLog(text)]),
    err: (text) => void lines.push([process.stderr, forTheLog(text)]),
    flush: () => {
      for (const [stream, text] of lines.splice(0)) stream.write(text);
    },
    drop: () => void lines.splice(0),
  };
}

/**
 * Starts judging the run; a run that streams writes its reports meanwhile, each clause's fleet replay added up
 * target by target. Ctrl+C (SIGINT, which Playwright's runner also takes) aborts the requests in flight: an
 * interrupted run sends nothing more. The line that says why the run stopped, if it did.
 */
export function startJudging(): Promise<{ said?: string }> {
  const current = thisRun();
  const abort = () => current.stop.abort();
  process.once('SIGINT', abort);
  const { run, stop, startedAt, output } = current;
  if (!current.streams) {
    current.judging = judgeRun(run, stop.signal).then((end) => (current.judged = end));
    return current.judging.finally(() => process.off('SIGINT', abort));
  }
  const replays = new FleetReplays();
  const onReport = (i: number, report: Parameters<FleetReplays['add']>[2], problem?: string) => replays.add(i, run.targets[i].name, report, problem);
  current.streaming = streamRun(run, { signal: stop.signal, started: startedAt, ci: ciOf(process.env), onReport }, output).then(
    ({ said, ...result }) => (current.streamed = { result, said, replays }),
  );
  return current.streaming.finally(() => process.off('SIGINT', abort));
}

/**
 * How the judging ended, for the reports. A run that ended before its judging did (Playwright stopped it) stops
 * it first and waits: nothing the judging writes may land after the reports.
 */
export async function judgingEnd(): Promise<JudgingEnd> {
  const current = thisRun();
  if (current.judging === undefined) return { status: 'interrupted', errors: [] };
  current.stop.abort();
  return current.judging;
}

/** How a run that streams ended, as judgingEnd; undefined where global setup never started it. */
export async function streamedEnd(): Promise<Streamed | undefined> {
  const current = thisRun();
  if (current.streaming === undefined) return undefined;
  current.stop.abort();
  return current.streaming;
}

/** The run's end as the reports take it, with what only the runner knows: how long it took, the CI job it runs in. */
export const endOf = ({ said: _said, ...judged }: JudgingEnd, selection?: RunEnd['selection']): RunEnd => ({
  ...judged,
  durationMs: Date.now() - thisRun().startedAt,
  selection,
  ci: ciOf(process.env),
});
