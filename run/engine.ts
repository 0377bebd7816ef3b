import type { Source } from '../harness/config/sources.ts';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { ConfigError } from '../harness/files/config-error.ts';
import { forTheLog, visible } from '../harness/files/visible.ts';
import { EXIT_CODE } from '../reporters/conformance-result.ts';
import { judgeTargets } from './judge-run.ts';
import { SILENT, TERMINAL, type Output } from './output.ts';
import { loadRun, type Run } from './prepare.ts';
import { refuseConfiguration, ReportsUnwritten, startRun } from './report-folder.ts';
import { reportRun, stopOf, streamRun, type RunEnd, type Selection, type StreamStart } from './report-run.ts';
import { isFleet } from './fleet.ts';
import type { RunResult } from './result.ts';
import { variablesOf, type ConformanceOptions } from './settings.ts';

// The engine: a run is a function. Settings → report folder → requests → judge → reports → exit code, in this
// process, with no test runner; the command's Playwright run (tests/) is one caller, scripts and the self-tests
// others. docs/library.md shows it used.

/** The exit code of a configuration error: nothing was sent. */
export const CONFIGURATION_EXIT_CODE = 2;

/** Where the run's lines go, each line fit for a CI log (forTheLog). */
function outputOf(given: ConformanceOptions['output']): Output {
  const to = given === 'terminal' ? TERMINAL : given === undefined || given === 'silent' ? SILENT : given;
  return { out: (text) => to.out(forTheLog(text)), err: (text) => to.err(forTheLog(text)) };
}

/** The clauses a caller names, each checked against the catalogue; undefined selects every clause. */
function selectionOf(clauses: unknown): Selection | undefined {
  if (clauses === undefined) return undefined;
  if (!Array.isArray(clauses) || !clauses.every((c) => typeof c === 'string')) throw new ConfigError('the option clauses is an array of clause ids');
  const known = new Set(loadCatalogue().map((c) => c.id));
  const unknown = clauses.find((c) => !known.has(c));
  if (unknown !== undefined)
    throw new ConfigError(`the option clauses names "${visible(unknown.slice(0, 80))}", which is no clause of the catalogue (contracts/clauses.yaml)`);
  const kept: ReadonlySet<string> = new Set(clauses);
  return () => kept;
}

/** The CI facts the reports follow: a GitHub Actions job's step summary and its annotations. */
export const ciOf = (env: Source): RunEnd['ci'] => ({ stepSummary: env.GITHUB_STEP_SUMMARY || undefined, annotations: env.GITHUB_ACTIONS === 'true' });

/** How the judging ended: its verdicts, or why there are none; `said`, the line that says why it stopped. */
export type JudgingEnd = Omit<RunEnd, 'durationMs' | 'selection' | 'ci'> & { said?: string };

/**
 * Sends every target's requests once and judges every clause, within the run's time bound; `signal` stops it.
 * How the judging ended, for the reports: its verdicts, or why there are none.
 */
export async function judgeRun(run: Run, signal: AbortSignal | undefined): Promise<JudgingEnd> {
  const timeout = AbortSignal.timeout(run.targets[0].runTimeoutMs);
  const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const today = new Date().toISOString().slice(0, 10);
  try {
    const judgement = await judgeTargets(run.targets, loadCatalogue(), today, stop, run.shard);
    if (judgement === undefined) return { status: signal?.aborted ? 'interrupted' : 'timedout', errors: [] };
    // A run none of whose targets left anything to judge (no answer, 404 everywhere, the token refused) stops with one line.
    const stopped = stopOf(judgement, run.multi);
    if (stopped === undefined) return { judgement, status: 'passed', errors: [] };
    return { judgement, status: 'failed', errors: [stopped], said: stopped };
  } catch (error) {
    const message = visible(String((error as Error)?.message ?? error));
    const said = `conformance: no verdict: the suite stopped on an error of its own (${message}); the settings are not at fault: report it with this line`;
    return { status: 'failed', errors: [`the suite stopped on an error of its own: ${message}`], said };
  }
}

/** A run refused before anything was sent: the line is printed, the report folder taken, exit code 2. */
function refused(error: ConfigError, env: Source, cwd: string, output: Output): RunResult {
  refuseConfiguration(error, env, cwd, output);
  return { verdict: 'error', exitCode: CONFIGURATION_EXIT_CODE, targets: [], reason: `configuration error: ${error.message}` };
}

/** The command line refused before the run was read (an option Playwright would refuse): said as a configuration error. */
export function refuseCommandLine(message: string, env: Source, cwd: string, output: Output): number {
  refuseConfiguration(new ConfigError(message), env, cwd, output);
  return CONFIGURATION_EXIT_CODE;
}

/** A fleet's run, streamed: the line that says why it stopped, if it did, then its result. */
async function streamed(run: Run, start: StreamStart, output: Output, onTarget: ConformanceOptions['onTarget']): Promise<RunResult> {
  const { said, ...result } = await streamRun(run, start, output, onTarget);
  if (said !== undefined) output.err(`${said}\n`);
  return result;
}

/**
 * Judges a deployment (or several) against the document, clause by clause, and writes the reports: the verdict,
 * the exit code the command would exit with, and each target's report and files. Needs no test runner and
 * starts no process. A configuration error is a result (exit code 2), never a throw.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  const started = Date.now();
  const output = outputOf(options?.output);
  const cwd = options?.cwd ?? process.cwd();
  let env: Source = {};
  let run: Run;
  let selection: Selection | undefined;
  let release: () => void;
  try {
    env = variablesOf(options);
    run = loadRun(env, cwd);
    selection = selectionOf(options.clauses);
    release = startRun(run, output);
  } catch (error) {
    if (error instanceof ReportsUnwritten) {
      output.err(`conformance: no verdict: ${error.message}\n`);
      return { verdict: 'incomplete', exitCode: EXIT_CODE.incomplete, targets: [], reason: error.message };
    }
    if (!(error instanceof ConfigError)) throw error;
    return refused(error, env, cwd, output);
  }
  try {
    return await judgeAndReport(run, { signal: options.signal, started, selection, ci: ciOf(env), output, onTarget: options.onTarget });
  } finally {
    release();
  }
}

/** How a run whose report folder is taken is judged: its stop, when it started, the clauses it judges, its CI, its lines. */
export interface Judging extends StreamStart {
  output: Output;
  onTarget?: ConformanceOptions['onTarget'];
}

/**
 * Sends a run's requests, judges every clause and writes the reports, its report folder already taken (startRun):
 * the run's result. A report that cannot be written leaves the run without a verdict, in one line, never a throw.
 */
export async function judgeAndReport(run: Run, how: Judging): Promise<RunResult> {
  const { output, onTarget, ...start } = how;
  try {
    // A fleet's reports are written as each target's judging ends (report-run.ts streamRun): its memory does not grow with its size.
    if (isFleet(run)) return await streamed(run, start, output, onTarget);
    const { said, ...end } = await judgeRun(run, start.signal);
    if (said !== undefined) output.err(`${said}\n`);
    return await reportRun(run, { ...end, durationMs: Date.now() - start.started, selection: start.selection, ci: start.ci }, output, onTarget);
  } catch (error) {
    // A report that cannot be written (a full disk, a folder taken away) leaves the run without a verdict: one
    // line, and the folder as it was, its incomplete report whole (each file is written whole or not at all).
    const { code, message } = error as NodeJS.ErrnoException;
    const reason = `the reports could not be written (${visible(code ?? message ?? String(error))})`;
    output.err(`conformance: no verdict: ${reason}\n`);
    return { verdict: 'incomplete', exitCode: EXIT_CODE.incomplete, reportDir: run.reportDir, targets: [], reason };
  }
}
