import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { ConfigError } from './harness/config.ts';
import { loadTargets, type RunTargets } from './harness/targets.ts';

function targetsOrExit(): RunTargets {
  try {
    return loadTargets();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // One line, before any request: what is wrong and what to set.
    process.stderr.write(`conformance: configuration error: ${error.message}\n`);
    process.exit(2);
  }
}

const run = targetsOrExit();
const [target] = run.targets;

const SHARDED = process.argv.some((arg) => arg.startsWith('--shard'));

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(run.reportDir, 'test-results'),
  // Several targets are checked side by side, one project each; the reporter writes a target × clause matrix.
  projects: run.multi ? run.targets.map((t) => ({ name: t.name })) : undefined,
  // Global setup sends each request once; every worker judges the same recorded answers.
  // One worker is fastest for a target that mostly conforms (docs/performance.md): Playwright's start-up
  // dominates, and every check is cheap. Against a badly broken target, --workers=2 halves the restarts.
  workers: 1,
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  timeout: Math.max(...run.targets.map((t) => t.timeoutMs)) + 15_000,
  globalTimeout: target.runTimeoutMs,
  reporter: [
    ['list'],
    ['junit', { outputFile: path.join(run.reportDir, 'junit.xml') }],
    ['./reporters/conformance-reporter.ts'],
    // A shard also leaves a blob report, so that `playwright merge-reports` can build the whole run's report.
    ...(SHARDED ? [['blob', { outputDir: path.join(run.reportDir, 'blob-report') }] as const] : []),
  ],
  globalSetup: './harness/global-setup.ts',
  use: { trace: 'off' },
  webServer: !run.multi && target.embedded
    ? {
        command: 'node --import tsx reference-server/main.ts 0',
        wait: { stdout: /port=(?<conformance_reference_port>\d+)/ },
        timeout: 30_000,
        gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
      }
    : undefined,
});
