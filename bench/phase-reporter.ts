import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Where the reporter writes its timestamps; the whole-run benchmark sets it for each run it times. */
export const PHASES_FILE_VARIABLE = 'BENCH_PHASES_FILE';

/** Wall-clock moments of one run (epoch ms) as the runner reached them, and what the runner held at most. */
export interface Phases {
  /** Reporters are created once the configuration is loaded. */
  configLoaded: number;
  /** After global setup (the configuration and the catalogue read) and the load of the test files; the runner judges from the worker's fork on. */
  begin: number;
  firstTestBegin?: number;
  lastTestEnd?: number;
  /** When this reporter, added after the configured ones, ends: they have written their reports. */
  reportsWritten?: number;
  /** Worker processes that ran tests: Playwright starts a new one after each failed test. */
  workers: number;
  tests: number;
  failed: number;
  /** Peak resident memory of the runner process, where the judging runs, in MiB. */
  runnerPeakMiB?: number;
}

const now = () => Date.now();

/** Added with --add-reporter by the whole-run benchmark: when each phase of a run ended. */
export default class PhaseReporter implements Reporter {
  private readonly phases: Phases = { configLoaded: now(), begin: 0, workers: 0, tests: 0, failed: 0 };
  private readonly workers = new Set<number>();

  onBegin(): void {
    this.phases.begin = now();
  }

  onTestBegin(): void {
    this.phases.firstTestBegin ??= now();
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    this.phases.lastTestEnd = now();
    this.workers.add(result.workerIndex);
    this.phases.tests += 1;
    if (result.status === 'failed' || result.status === 'timedOut') this.phases.failed += 1;
  }

  onEnd(): void {
    this.phases.reportsWritten = now();
    this.phases.workers = this.workers.size;
    this.phases.runnerPeakMiB = process.resourceUsage().maxRSS / 1024;
    const file = process.env[PHASES_FILE_VARIABLE];
    if (file) writeFileSync(file, JSON.stringify(this.phases));
  }
}
