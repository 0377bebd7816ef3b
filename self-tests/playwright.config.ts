import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { SCRATCH_VARIABLE } from './support/scratch-root.ts';

// Every temporary folder of a self-test run, the suite's runs in child processes included, lies in one folder
// made here and removed when the run ends (support/scratch-root.ts): a test that forgets its own, or a run
// killed on purpose, leaves nothing in the machine's temporary folder. Workers load this file too, and
// inherit the folder.
if (!process.env[SCRATCH_VARIABLE]) {
  // Playwright's cache of compiled TypeScript stays where it was, shared by the runs in child processes too:
  // it holds the suite's code only, and compiling it afresh for every run would double the time of the tests.
  process.env.PLAYWRIGHT_TRANSFORM_CACHE_DIR ||= path.join(os.tmpdir(), `playwright-transform-cache-${process.getuid?.() ?? 'user'}`);
  process.env[SCRATCH_VARIABLE] = mkdtempSync(path.join(os.tmpdir(), 'conformance-self-tests-'));
  process.env.TMPDIR = process.env[SCRATCH_VARIABLE];
}

// The project's own tests: the harness and contracts in-process, the suite as a black box in child processes.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  // Three on two cores: a third of the tests' time is waiting (on a target's deadline, a signal, a scrape), which a
  // third worker fills.
  workers: 3,
  fullyParallel: true,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 120_000,
  globalTeardown: './support/scratch-root.ts',
  reporter: [['list'], ['./support/closing-line-reporter.ts']],
});
