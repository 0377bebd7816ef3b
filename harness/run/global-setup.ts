import type { FullConfig } from '@playwright/test';
import { loadCatalogue } from '../contracts/catalogue.ts';
import { runStopped } from '../recording/preflight.ts';
import { leaveReplayFile, type Replay } from './replay-file.ts';
import { startJudging, type RunJudgement, type TargetJudgement } from './run-judgement.ts';
import { runTargets } from './run-targets.ts';
import { clauseResults, type ClauseResult } from '../../reporters/conformance-result.ts';

/** What a clause's test does with the status the report will give it. */
function testReplayOf(result: ClauseResult): Replay {
  if (result.status === 'not-exercised') return { status: result.status, message: `not exercised: ${result.reason}` };
  if (result.status === 'observed') return { status: result.status, message: 'observed: recorded, never judged (the document leaves it open)' };
  if (result.status === 'known-deviation') return { status: result.status, message: result.reason, deviation: result.deviation?.reason };
  return { status: result.status, message: result.reason };
}

/** Every clause's replay for one target: a target that left nothing to judge skips them all, with its problem. */
function replaysOf(target: TargetJudgement, judgement: RunJudgement): Record<string, Replay> {
  const { catalogue, today } = judgement;
  if (target.problem !== undefined) {
    const message = `not judged: ${runStopped(target.problem).message}`;
    return Object.fromEntries(catalogue.map((c) => [c.id, { status: 'not-judged', message }]));
  }
  const results = clauseResults(catalogue, target.runs, { deviations: target.facts.deviations, today, runStatus: 'passed', runErrors: [] });
  return Object.fromEntries(results.map((r) => [r.id, testReplayOf(r)]));
}

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
  const end = await startJudging((signal) => judgeTargets(run.targets, run.multi, catalogue, today, signal));
  if (end === undefined) return undefined;
  if ('error' in end) throw end.error;
  const { judgement } = end;
  const stopped = judgement.targets.filter((t) => t.problem !== undefined);
  if (stopped.length === judgement.targets.length)
    throw runStopped(run.multi ? stopped.map((t) => `${t.config.name}: ${t.problem}`).join('; ') : stopped[0].problem!);
  return leaveReplayFile({
    reportDir: run.reportDir,
    projects: run.multi ? run.targets.map((t) => t.name) : undefined,
    runTimeoutMs: run.targets[0].runTimeoutMs,
    catalogue,
    replays: Object.fromEntries(judgement.targets.map((t) => [t.project, replaysOf(t, judgement)])),
  });
}
