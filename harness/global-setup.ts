import type { FullConfig } from '@playwright/test';
import { loadCatalogue } from './catalogue.ts';
import { judgingEnded, startJudging } from './judging.ts';
import { runStopped } from './preflight.ts';
import { runTargets } from './targets.ts';
import { VERDICTS_VARIABLE, openVerdictsFolder } from './verdicts-file.ts';

/**
 * Sends every request of the run once per target, judges every clause of the catalogue on the answers,
 * and leaves the redacted verdicts for the tests to replay. The answers themselves stay in this process.
 * All of it runs while the first worker starts (harness/judging.ts); the teardown waits for it, and stops
 * the run with one line when no clause could be judged.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  const { multi, targets } = runTargets();
  const folder = openVerdictsFolder(loadCatalogue());
  process.env[VERDICTS_VARIABLE] = folder.path;
  // Required when the judging starts, not imported: the judge's modules load while the worker starts too.
  startJudging((signal) => (require('./judge-run') as typeof import('./judge-run')).judgeRun(targets, multi, folder, signal));
  return async () => {
    const end = await judgingEnded();
    folder.remove();
    if (end?.error !== undefined) throw end.error;
    if (end?.problem !== undefined) throw runStopped(end.problem);
  };
}
