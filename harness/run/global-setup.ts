import type { FullConfig } from '@playwright/test';
import { loadCatalogue } from '../contracts/catalogue.ts';
import { runStopped } from '../recording/preflight.ts';
import { leaveReplayFile } from './replay-file.ts';
import { projectsOf } from './replays.ts';
import { startJudging } from './run-judgement.ts';
import { runTargets } from './run-targets.ts';

/**
 * Sends every request of the run once per target and judges every clause of the catalogue on the answers,
 * here in the runner, before any worker starts; the judgement stays in this process for the reporter, and
 * the workers get a file of what each test replays. A run none of whose targets left anything to judge
 * stops here with one line.
 */
export default async function globalSetup(_config: FullConfig): Promise<(() => void) | undefined> {
  const run = runTargets();
  const catalogue = loadCatalogue();
  const today = new Date().toISOString().slice(0, 10);
  // Required here, not imported: a listing (`--list`) loads no judge.
  const { judgeTargets } = require('./judge-run') as typeof import('./judge-run');
  const projects = projectsOf(run);
  const end = await startJudging((signal) => judgeTargets(run.targets, projects, catalogue, today, signal));
  if (end === undefined) return undefined;
  if ('error' in end) throw end.error;
  const { judgement } = end;
  const stopped = judgement.targets.filter((t) => t.problem !== undefined);
  if (stopped.length === judgement.targets.length)
    throw runStopped(run.multi ? stopped.map((t) => `${t.config.name}: ${t.problem}`).join('; ') : stopped[0].problem!);
  return leaveReplayFile({
    reportDir: run.reportDir,
    projects,
    runTimeoutMs: run.targets[0].runTimeoutMs,
    catalogue,
    replays: judgement.replays,
  });
}
