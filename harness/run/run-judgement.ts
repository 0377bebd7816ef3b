import { setMaxListeners } from 'node:events';
import type { Clause } from '../contracts/catalogue.ts';
import type { TargetConfig } from '../config/config.ts';
import type { RunFacts } from '../judging/verdicts.ts';
import type { ClauseRun } from '../judging/verdicts.ts';
import type { Replay } from './replay-file.ts';

// The run's judgement lives in the runner's memory: global setup makes it, the reporter reads it there, and
// the workers get only what their tests replay (harness/run/replay-file.ts). Nothing comes back from them.

/** One target's verdicts, or the problem that left nothing of it to judge. */
export interface TargetJudgement {
  config: TargetConfig;
  /** The target's Playwright project: empty for a single target or a fleet. */
  project: string;
  facts: RunFacts;
  /** Every clause's run, as the judge gave it; empty when `problem` says why there is nothing to judge. */
  runs: ClauseRun[];
  /** Why no clause of this target could be judged (no answer, every request 404, the admin token refused). */
  problem?: string;
}

export interface RunJudgement {
  catalogue: Clause[];
  /** The day deviations are judged against (YYYY-MM-DD), taken once when the run started. */
  today: string;
  targets: TargetJudgement[];
  /** What each test replays, by project and clause (harness/run/replays.ts): the workers' file and the reporter's check. */
  replays: Record<string, Record<string, Replay>>;
}

/** How the judging ended: its judgement, or a fault of the suite's own; undefined when the run was stopped first. */
export type JudgingEnd = { judgement: RunJudgement } | { error: unknown } | undefined;

let current: { stop: AbortController; end: Promise<JudgingEnd> } | undefined;

/**
 * Starts judging the run and keeps its end for the reporter. Ctrl+C (SIGINT, which Playwright's runner also
 * takes) aborts the requests in flight: an interrupted run sends nothing more.
 */
export function startJudging(work: (signal: AbortSignal) => Promise<RunJudgement | undefined>): Promise<JudgingEnd> {
  const stop = new AbortController();
  // Every request in flight listens for the stop: a fleet has hundreds at once, which is no leak.
  setMaxListeners(0, stop.signal);
  const abort = () => stop.abort();
  process.once('SIGINT', abort);
  const end = work(stop.signal)
    .then((judgement): JudgingEnd => (judgement && !stop.signal.aborted ? { judgement } : undefined))
    .catch((error: unknown): JudgingEnd => ({ error }))
    .finally(() => process.off('SIGINT', abort));
  current = { stop, end };
  return end;
}

/**
 * The run's judgement for the reporter. A run that ended before its judging did (it timed out) stops it
 * first and waits: nothing the judging writes may land after the reports.
 */
export async function judgingEnd(): Promise<JudgingEnd> {
  current?.stop.abort();
  return current?.end;
}
