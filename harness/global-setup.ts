import type { FullConfig } from '@playwright/test';
import { loadCatalogue } from './catalogue.ts';
import type { TargetConfig } from './config.ts';
import { judgingEnded, startJudging, type JudgingEnd } from './judging.ts';
import { runStopped } from './preflight.ts';
import { runTargets } from './targets.ts';
import { VERDICTS_VARIABLE, openVerdictsFolder, type VerdictsFolder } from './verdicts-file.ts';

/**
 * Judges every target and leaves the tests their verdicts, or why there are none: whatever happens, a file,
 * so that no test waits for one in vain. Never rejects.
 */
export async function judgeRun(targets: TargetConfig[], multi: boolean, folder: VerdictsFolder, signal: AbortSignal): Promise<JudgingEnd> {
  try {
    // Required here, not imported: the judge's modules load while the worker starts too.
    const { judgeTargets } = require('./judge-run') as typeof import('./judge-run');
    const end = signal.aborted ? {} : await judgeTargets(targets, multi, signal);
    folder.publish(end.targets ? { targets: end.targets } : { stopped: end.problem === undefined ? 'the run was stopped' : runStopped(end.problem).message });
    return { problem: end.problem };
  } catch (error) {
    try {
      // The error's own words may quote a secret: the tests are told only where to look.
      folder.publish({ stopped: 'the suite failed while judging: see the error the run ends with' });
    } catch {
      // Not even that could be written (a full disk): without the folder, a waiting test stops waiting.
      folder.remove();
    }
    return { error };
  }
}

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
  startJudging((signal) => judgeRun(targets, multi, folder, signal));
  return async () => {
    const end = await judgingEnded();
    folder.remove();
    if (end?.error !== undefined) throw end.error;
    if (end?.problem !== undefined) throw runStopped(end.problem);
  };
}
