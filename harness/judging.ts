import { subscribe, unsubscribe } from 'node:diagnostics_channel';

// The run's judging (every request sent, every clause judged) runs in the runner while Playwright starts
// the first worker. A worker takes about 0.3 s to start, and the runner would wait for it idle: judged then,
// a small target adds only what the two share of the machine's cores. Judged before the fork, in global
// setup itself, it delayed the fork by all it took (docs/performance.md). Tests that ask for their verdict
// before there is one wait for it (harness/verdicts-file.ts).
//
// Global setup starts it; its teardown and the reporter wait for its end, the reporter stopping it first
// should the run have ended without it (timed out): nothing it writes may land after the reports.

/** How the judging ended: `problem` stops the run with one line, `error` is a fault of the suite's own. */
export interface JudgingEnd {
  problem?: string;
  error?: unknown;
}

interface Judging {
  /** Starts the judging, unless it was stopped first; its end, or nothing when it never started. */
  start(): Promise<JudgingEnd | undefined>;
  stop(): void;
}

let current: Judging | undefined;

/**
 * Runs `work` once Playwright forks the first worker (the channel tells of every child process made), or when
 * its end is first asked for, whichever comes first: a run whose filters leave no test starts no worker.
 * Ctrl+C (SIGINT, which Playwright's runner also takes) aborts its signal; once stopped before it started,
 * it never starts: an interrupted run sends nothing more. `work` never rejects.
 */
export function startJudging(work: (signal: AbortSignal) => Promise<JudgingEnd>): void {
  const controller = new AbortController();
  let started: Promise<JudgingEnd> | undefined;
  // Taken only while it can matter: afterwards SIGINT is Playwright's alone again, as it was before.
  const stop = () => {
    controller.abort();
    process.off('SIGINT', stop);
  };
  const start = async () => {
    unsubscribe('child_process', onChild);
    if (!started && controller.signal.aborted) return undefined;
    started ??= work(controller.signal).finally(() => process.off('SIGINT', stop));
    return started;
  };
  // Started once the fork has returned, not inside it: the worker is on its way first.
  const onChild = () => setImmediate(start);
  subscribe('child_process', onChild);
  process.on('SIGINT', stop);
  current = { start, stop };
}

/** How the run's judging ended, starting it first if no worker did; nothing when it never ran (stopped first, or a merge of shards). */
export async function judgingEnded(): Promise<JudgingEnd | undefined> {
  return current?.start();
}

/** Stops the run's judging, if it still runs, and waits for it to end; one not started never starts. */
export async function stopJudging(): Promise<void> {
  current?.stop();
  await current?.start();
}
