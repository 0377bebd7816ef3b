import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { referenceEnvironment } from '../../reference-server/fixtures.ts';
import { CI_MARKERS } from '../../harness/config/ci.ts';
import { runConformance } from '../../run/engine.ts';
import { COMMANDS } from '../../run/commands.ts';

export const PROJECT_ROOT = path.join(__dirname, '../../');
export const COMMAND = path.join(PROJECT_ROOT, 'bin', 'admin-api-conformance.js');

export interface SuiteRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** The command's process id, and so its process group's. */
  pid: number;
  reportDir: string;
  /** conformance.json, when the run wrote one. */
  report?: ConformanceReport;
}

/**
 * Where `npm run bench:whole-run -- --npm-test` has each run of the command noted (bench/npm-test.ts), to say what
 * the self-tests' time is made of; unset in a plain `npm test`.
 */
export const RUN_LOG_VARIABLE = 'SELF_TESTS_RUN_LOG';

/** One run of the command, as the bench counts it: how long it took, how it ended, how many of its tests failed. */
export function noteRun(started: number, exitCode: number | null, stdout: string): void {
  const log = process.env[RUN_LOG_VARIABLE];
  if (!log) return;
  // A failed test's line in the list reporter; each restarts Playwright's worker.
  const failed = stdout.match(/^\s+✘/gm)?.length ?? 0;
  appendFileSync(log, `${JSON.stringify({ ms: Date.now() - started, exitCode, failed, test: testTitle() })}\n`);
}

/** The self-test that made a run, as file › title. */
function testTitle(): string | undefined {
  try {
    const info = test.info();
    return `${path.basename(info.file)} › ${info.title}`;
  } catch {
    return undefined;
  }
}

/** A developer's proxy would carry the runs' requests to loopback targets away from them. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];

/** Variables the user's environment might hold (CI included), cleared so that each run sees only what a test gives it. */
const CLEARED = Object.keys(process.env).filter(
  (k) =>
    k.startsWith('CONFORMANCE_') ||
    (k.startsWith('PLAYWRIGHT_') && k !== 'PLAYWRIGHT_TRANSFORM_CACHE_DIR') ||
    k.startsWith('ADMIN_API_CONFORMANCE_') ||
    [
      'TEST_WORKER_INDEX',
      'GITHUB_STEP_SUMMARY',
      'GITHUB_RUN_ID',
      'GITHUB_RUN_ATTEMPT',
      'CI_PIPELINE_ID',
      'BUILDKITE_BUILD_ID',
      'CI_NODE_INDEX',
      'CI_NODE_TOTAL',
      'JOB_COMPLETION_INDEX',
    ].includes(k) ||
    (CI_MARKERS as readonly string[]).includes(k) ||
    PROXY_VARIABLES.includes(k.toUpperCase()),
);

/** The environment of a run of the command: the user's, without what it might hold that a test did not give. */
export function commandEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0', ...env };
  for (const key of CLEARED) if (!(key in env)) delete childEnv[key];
  return childEnv;
}

/** Signals the run's whole process group: the command, Playwright and its workers. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // the group is gone
  }
}

/** Lets a test act on the running suite, say kill it halfway, given the output so far. */
export type RunControl = (child: ChildProcess, output: () => string) => void;

/** Where a run's lines are caught, in this process. */
function caught(): { output: { out(text: string): void; err(text: string): void }; stdout: () => string; stderr: () => string } {
  let [stdout, stderr] = ['', ''];
  return { output: { out: (t) => void (stdout += t), err: (t) => void (stderr += t) }, stdout: () => stdout, stderr: () => stderr };
}

const reportIn = (reportDir: string): ConformanceReport | undefined => {
  const file = path.join(reportDir, 'conformance.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
};

/** A run's report folder (the test's, or a scratch one) and the folder it runs from, where no `.env` of the developer's is. */
function foldersOf(env: Record<string, string>, workDir: string | undefined): { reportDir: string; cwd: string } {
  const reportDir = env.CONFORMANCE_REPORT_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'conformance-self-test-'));
  const cwd = workDir ?? (env.CONFORMANCE_REPORT_DIR === undefined ? reportDir : mkdtempSync(path.join(os.tmpdir(), 'conformance-self-test-cwd-')));
  return { reportDir, cwd };
}

/** Whether any process of the group is still there. */
export function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the suite as the command does, from a scratch folder (so that no `.env` of the developer's is read), and
 * reads what it wrote: in this process, through the engine the command's Playwright run calls, when the run needs
 * nothing only a process shows (Playwright's options in `args`, a test acting on the process, another copy of the
 * suite); in a child process of its own group otherwise (runSuiteProcess).
 */
export async function runSuite(...given: Parameters<typeof runSuiteProcess>): Promise<SuiteRun> {
  const [env = {}, args = [], , control, workDir, command = COMMAND] = given;
  if (args.length > 0 || control !== undefined || command !== COMMAND) return runSuiteProcess(...given);
  const { reportDir, cwd } = foldersOf(env, workDir);
  const lines = caught();
  const started = Date.now();
  const result = await runConformance({ env: commandEnv({ ...env, CONFORMANCE_REPORT_DIR: reportDir }) as Record<string, string>, cwd, output: lines.output });
  const durationMs = Date.now() - started;
  return { exitCode: result.exitCode, stdout: lines.stdout(), stderr: lines.stderr(), durationMs, pid: process.pid, reportDir, report: reportIn(reportDir) };
}

/**
 * Runs the suite's command as a user would, in a child process of its own process group (so that a test
 * can kill the whole run), from a scratch folder (so that no `.env` of the developer's is read), and
 * reads what it wrote. `args` go to Playwright.
 */
export async function runSuiteProcess(
  env: Record<string, string> = {},
  args: string[] = [],
  timeoutMs = 110_000,
  control?: RunControl,
  workDir?: string,
  /** Another copy of the suite's command (support/suite-copy.ts). */
  command = COMMAND,
): Promise<SuiteRun> {
  const { reportDir, cwd } = foldersOf(env, workDir);
  const childEnv = commandEnv({ ...env, CONFORMANCE_REPORT_DIR: reportDir });
  const started = Date.now();
  const child = spawn(process.execPath, [command, '--', ...args], { cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeoutMs);
  control?.(child, () => stdout + stderr);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  noteRun(started, exitCode, stdout);
  return { exitCode, stdout, stderr, durationMs: Date.now() - started, pid: child.pid!, reportDir, report: reportIn(reportDir) };
}

/**
 * Runs the command with these arguments as given, no `--` added, from an empty folder with none of the
 * developer's configuration (so the embedded reference target, or a merge); its report, when it wrote one.
 * verify, merge, diff and document run in this process, as the command runs them; anything else in a child.
 */
export async function runCommand(
  args: string[],
  timeoutMs = 60_000,
  given: Record<string, string> = {},
): Promise<{ exitCode: number | null; stdout: string; stderr: string; report?: ConformanceReport }> {
  const started = Date.now();
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'conformance-command-'));
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const key of CLEARED) delete env[key];
  Object.assign(env, given);
  const reportDir = path.join(cwd, 'report');
  env.CONFORMANCE_REPORT_DIR = reportDir;
  const name = args[0] as keyof typeof COMMANDS;
  if (Object.hasOwn(COMMANDS, name)) {
    const lines = caught();
    const exitCode = await COMMANDS[name](args.slice(1), { output: lines.output, env, cwd });
    const report = reportIn(reportDir);
    rmSync(cwd, { recursive: true, force: true });
    return { exitCode, stdout: lines.stdout(), stderr: lines.stderr(), report };
  }
  const child = spawn(process.execPath, [COMMAND, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  const report = reportIn(reportDir);
  rmSync(cwd, { recursive: true, force: true });
  noteRun(started, exitCode, stdout);
  return { exitCode, stdout, stderr, report };
}

/** The lines `diff` prints comparing two runs, once it exited as expected (its output in the failure if not). */
export async function diffLines(before: string, after: string, exitCode: number): Promise<string[]> {
  const run = await runCommand(['diff', before, after]);
  expect(run.exitCode, run.stdout + run.stderr).toBe(exitCode);
  return run.stdout.trim().split('\n');
}

/** The configuration that points the suite at a reference server (or a variant of it) started by a test. */
export function referenceTargetEnv(baseUrl: string, overrides: Record<string, string> = {}): Record<string, string> {
  return { ...referenceEnvironment(baseUrl), ...overrides };
}

export function statusesOf(report: ConformanceReport | undefined): Record<string, string> {
  return Object.fromEntries((report?.clauses ?? []).map((c) => [c.id, c.status]));
}
