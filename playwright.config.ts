import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { replayFile } from './harness/run/replay-file.ts';

// This file is read by the runner and again by every worker; only the runner reads the configuration and
// takes the report folder. A worker, started again after every failing clause, takes what global setup left
// it (harness/run/replay-file.ts).
const IS_WORKER = process.env.TEST_WORKER_INDEX !== undefined;
const IS_RUNNER = !IS_WORKER && !process.argv.includes('--list');

/** A run the command refused before Playwright read this suite's configuration: the line that says why. */
const REFUSAL_VARIABLE = 'ADMIN_API_CONFORMANCE_REFUSAL';

/** What this file needs of the run's configuration. */
interface RunShape {
  reportDir: string;
  /** One Playwright project per target, by name; none for a single target or a fleet (harness/run/replays.ts). */
  projects?: string[];
  runTimeoutMs: number;
}

/** The report folder a configuration error still takes, when it can be named (its module required only then). */
const errorFolder = () =>
  (require('./harness/config/replay-folder') as typeof import('./harness/config/replay-folder')).folderToTakeOnConfigError(process.env, process.cwd());

// Required here, not imported: a worker reads none of the configuration's modules. Written without an
// extension, which a clone resolves to the TypeScript and the npm package to its build.
function readRun(): RunShape {
  const { ConfigError } = require('./harness/files/config-error') as typeof import('./harness/files/config-error');
  const { runTargets } = require('./harness/run/run-targets') as typeof import('./harness/run/run-targets');
  const { isFleet, PROJECTS_AT_MOST, projectsOf } = require('./harness/run/replays') as typeof import('./harness/run/replays');
  const runStart = IS_RUNNER ? (require('./harness/run/run-start') as typeof import('./harness/run/run-start')) : undefined;
  // The command refused the run before this file was read (an option Playwright refused, its UI mode).
  const refusal = process.env[REFUSAL_VARIABLE];
  if (runStart && refusal) return runStart.stopOnConfigError(new ConfigError(refusal), errorFolder());
  // Playwright's own --shard, given to Playwright directly, would split one run's tests and send every request in each shard.
  if (runStart && process.argv.some((arg) => arg === '--shard' || arg.startsWith('--shard=')))
    return runStart.stopOnConfigError(
      new ConfigError(
        "Playwright's --shard splits a run's tests; the suite splits its targets: set CONFORMANCE_SHARD=i/n, or give --shard=i/n to admin-api-conformance",
      ),
      errorFolder(),
    );
  try {
    const run = runTargets();
    const projects = projectsOf(run);
    // A fleet has no project per target for --project to select.
    if (isFleet(run) && process.argv.some((arg) => arg === '--project' || arg.startsWith('--project=')))
      throw new ConfigError(
        `--project selects one of at most ${PROJECTS_AT_MOST} targets; this run has ${run.targets.length}, one test per clause for them all: give CONFORMANCE_TARGETS only the targets to judge`,
      );
    runStart?.startRun(run);
    return { reportDir: run.reportDir, projects, runTimeoutMs: run.targets[0].runTimeoutMs };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // One line, before any request: what is wrong and what to set.
    if (runStart) return runStart.stopOnConfigError(error, errorFolder());
    process.stderr.write(`conformance: configuration error: ${error.message}\n`);
    process.exit(2);
  }
}

const run: RunShape = (IS_WORKER ? replayFile() : undefined) ?? readRun();

// Playwright's own by-products (test results, .last-run.json, error context, traces) stay out of the report folder,
// in a folder of this user's: on a machine several users share, the first run's folder is not the others' to write in.
const OUTPUT_ROOT = process.getuid ? `admin-api-conformance-${process.getuid()}` : 'admin-api-conformance';
const OUTPUT_DIR = path.join(os.tmpdir(), OUTPUT_ROOT, createHash('sha256').update(run.reportDir).digest('hex').slice(0, 12));

// A blob report, one asked for with --reporter=blob, goes to the report folder, not beside this file (inside
// node_modules, for the installed package).
if (!IS_WORKER) process.env.PLAYWRIGHT_BLOB_OUTPUT_DIR ||= path.join(run.reportDir, 'blob-report');

// In a clone Playwright loads this suite as TypeScript; the npm package runs its build (dist/), as JavaScript.
const EXT = path.extname(__filename);

export default defineConfig({
  testDir: 'tests',
  testMatch: `**/*.spec${EXT}`,
  outputDir: OUTPUT_DIR,
  // A few targets are checked side by side, one project each; a fleet's tests carry every target at once. The
  // reporter writes a report per target and a target × clause matrix.
  projects: run.projects?.map((name) => ({ name })),
  // Global setup sends each request once and judges every clause before any worker starts; a test only replays
  // its clause's verdict.
  // One worker is fastest (docs/performance.md): Playwright's start-up dominates, and a replay is cheap.
  workers: 1,
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  // A test replays a verdict and sends nothing: the request timeouts bind the judging, not the tests.
  timeout: 15_000,
  globalTimeout: run.runTimeoutMs,
  // junit.xml is the suite's own (reporters/junit.ts), rendered from the report: an errored clause is an <error>.
  reporter: [['list'], [`./harness/run/conformance-reporter${EXT}`]],
  globalSetup: `./harness/run/global-setup${EXT}`,
  use: { trace: 'off' },
});
