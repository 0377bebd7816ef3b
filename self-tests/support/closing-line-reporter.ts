import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Ends the output with one plain "N passed, N failed" line, which CI systems read. */
export default class ClosingLineReporter implements Reporter {
  private readonly finals = new Map<string, TestResult['status']>();

  onTestEnd(test: TestCase, result: TestResult): void {
    this.finals.set(test.id, result.status);
  }

  onEnd(_result: FullResult): void {
    const statuses = [...this.finals.values()];
    const passed = statuses.filter((s) => s === 'passed').length;
    const skipped = statuses.filter((s) => s === 'skipped').length;
    process.stdout.write(`\nself-tests: ${passed} passed, ${statuses.length - passed - skipped} failed, ${skipped} skipped\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
