import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { ConfigError, loadConfig, type TargetConfig } from './harness/config.ts';

function configOrExit(): TargetConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // One line, before any request: what is wrong and what to set.
    process.stderr.write(`conformance: configuration error: ${error.message}\n`);
    process.exit(2);
  }
}

const target = configOrExit();

const SHARDED = process.argv.some((arg) => arg.startsWith('--shard'));

/** The whole run is bounded too, so a target that stalls between requests cannot hold a CI job. */
const RUN_TIMEOUT_MS = Number(process.env.CONFORMANCE_RUN_TIMEOUT_MS ?? 10 * 60_000);

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(target.reportDir, 'test-results'),
  // Global setup sends each request once; every worker judges the same recorded answers.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  timeout: target.timeoutMs + 15_000,
  globalTimeout: RUN_TIMEOUT_MS,
  reporter: [
    ['list'],
    ['junit', { outputFile: path.join(target.reportDir, 'junit.xml') }],
    ['./reporters/conformance-reporter.ts'],
    // A shard also leaves a blob report, so that `playwright merge-reports` can build the whole run's report.
    ...(SHARDED ? [['blob', { outputDir: path.join(target.reportDir, 'blob-report') }] as const] : []),
  ],
  globalSetup: './harness/global-setup.ts',
  use: { trace: 'off' },
  webServer: target.embedded
    ? {
        command: 'node --import tsx reference-server/main.ts 0',
        wait: { stdout: /port=(?<conformance_reference_port>\d+)/ },
        timeout: 30_000,
        gracefulShutdown: { signal: 'SIGTERM', timeout: 2_000 },
      }
    : undefined,
});
