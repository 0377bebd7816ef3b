import { writeFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Where the reporter writes its timestamps; bench/whole-run.ts sets it for each run it times. */
export const PHASES_FILE_VARIABLE = 'BENCH_PHASES_FILE';

/** Wall-clock moments of one run (epoch ms), as the runner reached them. */
export interface Phases {
  /** The runner process started (performance.timeOrigin). */
  processStart: number;
  /** Reporters are created once the configuration is loaded. */
  configLoaded: number;
  /** After the web server, global setup (every request of the run) and the in-process load of the test files. */
  begin: number;
  firstTestBegin?: number;
  lastTestEnd?: number;
  /** When this reporter, added after the configured ones, is called: they have written their reports. */
  reportsWritten?: number;
  /** After global teardown and the web server's shutdown. */
  exit?: number;
  /** Each finished test; the time from start to end beyond durationMs went into worker fixtures. */
  tests: { clause?: string; workerIndex: number; startTime: number; endTime: number; durationMs: number; status: string }[];
}

const now = () => Date.now();

/** Added with --add-reporter by the whole-run benchmark: when each phase of a run ended. */
export default class PhaseReporter implements Reporter {
  private readonly phases: Phases = { processStart: Math.round(performance.timeOrigin), configLoaded: now(), begin: 0, tests: [] };

  onBegin(): void {
    this.phases.begin = now();
  }

  onTestBegin(): void {
    this.phases.firstTestBegin ??= now();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const endTime = (this.phases.lastTestEnd = now());
    const clause = test.annotations.find((a) => a.type === 'clause')?.description;
    this.phases.tests.push({ clause, workerIndex: result.workerIndex, startTime: result.startTime.getTime(), endTime, durationMs: result.duration, status: result.status });
  }

  onEnd(_result: FullResult): void {
    this.phases.reportsWritten = now();
    this.write();
  }

  async onExit(): Promise<void> {
    this.phases.exit = now();
    this.write();
  }

  private write(): void {
    const file = process.env[PHASES_FILE_VARIABLE];
    if (file) writeFileSync(file, JSON.stringify(this.phases));
  }
}
