import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { runConformance } from '../../run/engine.ts';
import { commandEnv, type SuiteRun } from './run-suite.ts';

// A run of some clauses only, in this process: the engine's `clauses` is what a --grep that selects clauses gives
// the reports under Playwright (the reporter builds them for the clauses the chosen tests select), so a run that
// needs nothing else of Playwright needs no process. What --grep itself selects is Playwright's, proven by a run of
// the command that narrows a run (self-tests/reporters/multi-target.test.ts, --project).

/**
 * Runs the suite as runSuite does in this process (a scratch folder, the user's environment cleared of what a test
 * did not give), judging only `clauses`.
 */
export async function runClauses(env: Record<string, string>, clauses: string[], workDir?: string): Promise<SuiteRun> {
  const reportDir = env.CONFORMANCE_REPORT_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'conformance-self-test-'));
  const cwd = workDir ?? mkdtempSync(path.join(os.tmpdir(), 'conformance-self-test-cwd-'));
  let [stdout, stderr] = ['', ''];
  const output = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) };
  const started = Date.now();
  const variables = commandEnv({ ...env, CONFORMANCE_REPORT_DIR: reportDir }) as Record<string, string>;
  const result = await runConformance({ env: variables, cwd, clauses, output });
  const durationMs = Date.now() - started;
  const file = path.join(reportDir, 'conformance.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
  return { exitCode: result.exitCode, stdout, stderr, durationMs, pid: process.pid, reportDir, report };
}
