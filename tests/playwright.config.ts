import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { replayFile } from './replay-file.ts';

// Playwright is one consumer of the engine (run/): this file is read by the runner, which reads the run's
// configuration once (runner.ts), and again by every worker, which reads only what its tests replay.

const IS_WORKER = process.env.TEST_WORKER_INDEX !== undefined;

/** What this file needs of the run. */
type RunShape = { reportDir: string; projects?: string[]; runTimeoutMs: number };

// Required, not imported: a worker, started again after every failing clause, loads none of the engine.
const readRun = (): RunShape => (require('./runner') as typeof import('./runner')).readRun();

const run: RunShape = (IS_WORKER ? replayFile() : undefined) ?? readRun();

// Playwright's own by-products (test results, .last-run.json, error context, traces) stay out of the report folder,
// in a folder of this user's: on a machine several users share, the first run's folder is not the others' to write in.
const OUTPUT_ROOT = process.getuid ? `admin-api-conformance-${process.getuid()}` : 'admin-api-conformance';
const OUTPUT_DIR = path.join(os.tmpdir(), OUTPUT_ROOT, createHash('sha256').update(run.reportDir).digest('hex').slice(0, 12));

// A blob report, one asked for with --reporter=blob, goes to the report folder, not beside this file (inside
// node_modules, for the installed package).
if (!IS_WORKER) process.env.PLAYWRIGHT_BLOB_OUTPUT_DIR ||= path.join(run.reportDir, 'blob-report');

// In a clone Playwright loads this suite as TypeScript; the npm package runs its build (dist/), as JavaScript.
// Paths are this folder's, whichever configuration file Playwright was given (the root one re-exports this).
const EXT = path.extname(__filename);
const here = (file: string) => path.join(__dirname, `${file}${EXT}`);

/** The run's own bound is the engine's (CONFORMANCE_RUN_TIMEOUT_MS); Playwright's, a little later, only backs it up. */
const BACKSTOP_MS = 30_000;

export default defineConfig({
  testDir: __dirname,
  testMatch: `**/*.spec${EXT}`,
  outputDir: OUTPUT_DIR,
  // A few targets are checked side by side, one project each; a fleet's tests carry every target at once.
  projects: run.projects?.map((name) => ({ name })),
  // Global setup has the engine judge every clause before any worker starts; a test only replays its verdict.
  // One worker: a replay is cheap, and a second worker would add only its own start-up.
  workers: 1,
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  // A test replays a verdict and sends nothing: the request timeouts bind the judging, not the tests.
  timeout: 15_000,
  globalTimeout: run.runTimeoutMs + BACKSTOP_MS,
  // The terminal's lines are the suite's own (terminal.ts): a user's --reporter replaces them, and the command keeps
  // the reporter that writes the reports. junit.xml is the suite's too (reporters/junit.ts), rendered from the report.
  reporter: [[here('terminal')], [here('reporter')]],
  globalSetup: here('global-setup'),
  use: { trace: 'off' },
});
