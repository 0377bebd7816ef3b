import type { FullConfig } from '@playwright/test';
import { startJudging } from './runner.ts';

/**
 * Has the engine send every request of the run once per target and judge every clause, here in the runner,
 * before any worker starts; the reporter then has it write the reports (tests/reporter.ts). A run none of whose
 * targets left anything to judge, or that the suite's own error stopped, ends here with its one line.
 */
export default async function globalSetup(_config: FullConfig): Promise<void> {
  const end = await startJudging();
  if (end.said === undefined) return;
  // Its printed form is the line alone: the reason is the user's, no stack trace helps.
  const stop = new Error(end.said);
  stop.stack = end.said;
  throw stop;
}
