import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import { startReferenceServer } from '../../reference-server/server.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { judgedVariant } from '../matrix/judged.ts';
import { COMMAND, noteRun, referenceTargetEnv, runSuiteProcess, statusesOf } from '../support/run-suite.ts';

// The matrix judges every fault in process; this run proves that HTTP, Playwright and the reporter carry
// the same verdicts for one of them, clause by clause, and that the exit code follows, whatever reporters
// the user puts in place of the configured ones (the command keeps its own beside them). It runs in a
// terminal, as a developer runs it, where Playwright's HTML reporter would serve its report until Ctrl+C once
// a test failed (script(1) gives the run a terminal; without script(1) it runs without one, and the test about
// the terminal is skipped).

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
const REPORTERS = '--reporter=dot,blob,html';
/** Whether script(1), of util-linux, is there to give the run a terminal. */
const terminal = spawnSync('script', ['--version']).error === undefined;

interface TerminalRun {
  exitCode: number | null;
  /** What the terminal showed, its line ends as a program prints them, without its colours. */
  output: string;
  report?: ConformanceReport;
}

/**
 * Runs the command in a terminal from `dir`, with a terminal user's environment and nothing else: Playwright also
 * reads variables of its own callers to decide whether to serve, and with one of them the test could not fail.
 */
async function runInTerminal(env: Record<string, string>, dir: string): Promise<TerminalRun> {
  const reportDir = path.join(dir, 'report');
  const given = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', ...env, CONFORMANCE_REPORT_DIR: reportDir };
  const started = Date.now();
  if (!terminal) {
    const run = await runSuiteProcess({ ...env, CONFORMANCE_REPORT_DIR: reportDir }, [REPORTERS], 60_000, undefined, dir);
    return { exitCode: run.exitCode, output: run.stdout + run.stderr, report: run.report };
  }
  const line = [process.execPath, COMMAND, '--', REPORTERS].map((word) => `'${word}'`).join(' ');
  const child = spawn('script', ['-qec', line, '/dev/null'], { cwd: dir, env: given, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  output = stripVTControlCharacters(output).replaceAll('\r\n', '\n');
  noteRun(started, exitCode, output);
  const file = path.join(reportDir, 'conformance.json');
  return { exitCode, output, report: existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined };
}

test.describe.configure({ mode: 'default' });
let dir: string;
let run: TerminalRun;
test.beforeAll(async () => {
  const { server, url } = await startReferenceServer(0, [fault]);
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-black-box-'));
  try {
    run = await runInTerminal(referenceTargetEnv(`${url}/variants/${fault.name}`, { CONFORMANCE_OPENAPI_PATH: '/docs/openapi.json' }), dir);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a fault run as a black box, with the reporter given on the command line, fails exactly the clauses the judge fails in process, exit code 1', () => {
  // An INFO clause the judge passes is reported observed, never passed.
  const info = new Set(
    loadCatalogue()
      .filter((c) => c.level === 'INFO')
      .map((c) => c.id),
  );
  const judged = judgedVariant(fault);
  const expected = Object.fromEntries([
    ...judged.all.passed.map((id) => [id, info.has(id) ? 'observed' : 'passed']),
    ...judged.all.failed.map((id) => [id, 'failed']),
    ...judged.all.errored.map((id) => [id, 'errored']),
    ...judged.all.notExercised.map((id) => [id, 'not-exercised']),
  ]);
  expect(statusesOf(run.report), run.output).toEqual(expected);
  expect(judged.must.failed).toEqual(fault.breaks);
  expect(run.report?.verdict).toBe('fail');
  expect(run.exitCode).toBe(1);
  // Playwright ran one test per clause of the catalogue, and no other (self-tests/catalogue.test.ts reads which).
  expect(run.output).toContain(`Running ${loadCatalogue().length} tests using 1 worker`);
  // The user's reporter ran in place of the list reporter, and the command's own wrote the report.
  expect(run.output).not.toContain('✘');
  expect(run.output).toMatch(/^[·°×F]+$/m);
  // The blob report the user asked for went to the report folder, not beside the suite's configuration.
  expect(existsSync(path.join(dir, 'report', 'blob-report', 'report.zip'))).toBe(true);
});

test('a run in a terminal with -- --reporter=html ends with its verdict, exit code 1, its HTML report written where the user stands, not served', () => {
  test.skip(!terminal, 'needs script(1), of util-linux, for a terminal');
  expect(run.output).not.toContain('Serving HTML report');
  expect(run.exitCode, run.output).toBe(1);
  // Written where the user stands, as in a project of their own.
  expect(existsSync(path.join(dir, 'playwright-report', 'index.html'))).toBe(true);
});
