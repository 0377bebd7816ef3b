import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runSuite, runSuiteProcess, type SuiteRun } from '../support/run-suite.ts';

// A report folder on a disk that fills up while the reports are written: each file is written whole or not at
// all, so the run's incomplete report stays readable, and the run ends in one line without a verdict.
// A small tmpfs stands for the full disk; where this machine cannot mount one, the test says so and is skipped.
// The engine writes the reports in process; under the command, Playwright's reporter writes them, and says so
// itself: each is shown once.

for (const [how, run] of [
  ['a run of the command', (env: Record<string, string>) => runSuiteProcess(env, [], 60_000)],
  ['a run in process', (env: Record<string, string>) => runSuite(env, [], 60_000)],
] as [string, (env: Record<string, string>) => Promise<SuiteRun>][])
  test(`a disk that fills up while the reports of ${how} are written leaves the incomplete report whole, and one line, exit code 3`, async () => {
    const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'conformance-full-disk-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=96k', 'none', mountPoint]).status === 0;
    test.skip(!mounted, 'needs to mount a small tmpfs (root, in a sandbox that allows it)');
    try {
      const result = await run({ CONFORMANCE_EMBEDDED: 'true', CONFORMANCE_REPORT_DIR: path.join(mountPoint, 'report') });
      expect(result.exitCode, result.stdout + result.stderr).toBe(3);
      expect(result.stderr).toContain('conformance: no verdict: the reports could not be written (ENOSPC)');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const report = JSON.parse(readFileSync(path.join(mountPoint, 'report', 'conformance.json'), 'utf8'));
      expect(report.verdict).toBe('incomplete');
    } finally {
      spawnSync('umount', [mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });

// A disk with no room even for the incomplete report a run leaves as it starts: no fault of the settings, nor of the
// suite's own, and no file cut short; one line, no verdict. The engine takes the report folder for the command's
// run too (tests/runner.ts), whose full disk is shown above.
for (const [how, run] of [['a run in process', (env: Record<string, string>) => runSuite(env, [], 60_000)]] as [
  string,
  (env: Record<string, string>) => Promise<SuiteRun>,
][])
  test(`a disk already full as ${how} starts is one line that says the reports could not be written, exit code 3, never an error of the suite's own nor a file cut short`, async () => {
    const mountPoint = mkdtempSync(path.join(os.tmpdir(), 'conformance-full-disk-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=12k', 'none', mountPoint]).status === 0;
    test.skip(!mounted, 'needs to mount a small tmpfs (root, in a sandbox that allows it)');
    try {
      const reportDir = path.join(mountPoint, 'report');
      const result = await run({ CONFORMANCE_EMBEDDED: 'true', CONFORMANCE_REPORT_DIR: reportDir });
      expect(result.exitCode, result.stdout + result.stderr).toBe(3);
      expect(result.stderr.trim().split('\n')).toEqual(['conformance: no verdict: the reports could not be written (ENOSPC)']);
      // Each file is whole or not there: an XML file ends its document, a JSON file parses.
      for (const name of readdirSync(reportDir)) {
        const text = readFileSync(path.join(reportDir, name), 'utf8');
        if (name.endsWith('.xml')) expect(text.trimEnd().endsWith('</testsuites>'), name).toBe(true);
        if (name.endsWith('.json')) expect(() => JSON.parse(text), name).not.toThrow();
      }
    } finally {
      spawnSync('umount', [mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    }
  });
