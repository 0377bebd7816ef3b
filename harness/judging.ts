import { subscribe, unsubscribe } from 'node:diagnostics_channel';

// The run's judging (every request sent, every clause judged) runs in the runner while Playwright starts
// the first worker. A worker takes about 0.3 s to start, on a core of its own, and the runner waits for it
// idle: judged then, a small target costs the run almost nothing. Judged before the fork, as in global setup
// itself, it delays the fork by all it takes (docs/performance.md). Tests that ask for their verdict before
// there is one wait for it (harness/verdicts-file.ts).
//
// Global setup starts it; its teardown and the reporter wait for its end, the reporter stopping it first
// should the run have ended without it (timed out): nothing it writes may land after the reports.

/** How the judging ended: `problem` stops the run with one line, `error` is a fault of the suite's own. */
export interface JudgingEnd {
  problem?: string;
  error?: unknown;
}

interface Judging {
  start(): Promise<JudgingEnd>;
  stop(): void;
}

let current: Judging | undefined;

/**
 * Runs `work` once Playwright forks the first worker (the channel tells of every child process made), or when
 * its end is first asked for, whichever comes first: a run whose filters leave no test starts no worker.
 * `work` never rejects; it stops early when its signal aborts (Ctrl+C, or a run ended without it).
 */
export function startJudging(work: (signal: AbortSignal) => Promise<JudgingEnd>): void {
  const controller = new AbortController();
  const stop = () => controller.abort();
  let started: Promise<JudgingEnd> | undefined;
  const start = () => {
    unsubscribe('child_process', onChild);
    started ??= (async () => {
      process.on('SIGINT', stop);
      try {
        return await work(controller.signal);
      } finally {
        process.off('SIGINT', stop);
      }
    })();
    return started;
  };
  // Started once the fork has returned, not inside it: the worker is on its way first.
  const onChild = () => setImmediate(start);
  subscribe('child_process', onChild);
  current = { start, stop };
}

/** How the run's judging ended, starting it first if no worker did; nothing when no judging is in this process (a merge of shards). */
export async function judgingEnded(): Promise<JudgingEnd | undefined> {
  return current?.start();
}

/** Stops the run's judging, if it still runs, and waits for it to end. */
export async function stopJudging(): Promise<void> {
  current?.stop();
  await current?.start();
}
