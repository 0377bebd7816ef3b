import { defineConfig } from '@playwright/test';

// The project's own tests: the harness and contracts in-process, the suite as a black box in child processes.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  workers: 2,
  fullyParallel: true,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 120_000,
  reporter: [['list'], ['./support/closing-line-reporter.ts']],
});
