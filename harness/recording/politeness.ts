import type { TargetConfig } from '../config/config.ts';

// Politeness: the requests of every target behind one origin share one budget (CONFORMANCE_ORIGIN_CONCURRENCY), so
// that a thousand tenants behind one gateway are one client of it, not a thousand; and two runs of one target start
// at least CONFORMANCE_MIN_INTERVAL_MS apart. Both hold for the whole process: runs side by side (an exporter's
// probes) share them as the targets of one run do.

/** The requests in flight to one origin, and those waiting for a place, first come first served. */
interface Lane {
  inFlight: number;
  waiting: (() => void)[];
}

const lanes = new Map<string, Lane>();

/** An origin as the budget counts it: scheme, host and port; a base URL that is no URL counts alone. */
export function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}

/** The requests in flight to `origin` now, for a run's figures and its self-tests. */
export const inFlightTo = (origin: string): number => lanes.get(origin)?.inFlight ?? 0;

/** Runs `task` once `origin` has fewer than `limit` requests in flight; its place is given back however it ends. */
export async function withinOriginBudget<T>(origin: string, limit: number, task: () => Promise<T>): Promise<T> {
  const lane = lanes.get(origin) ?? { inFlight: 0, waiting: [] };
  lanes.set(origin, lane);
  while (lane.inFlight >= limit) await new Promise<void>((resolve) => lane.waiting.push(resolve));
  lane.inFlight++;
  try {
    return await task();
  } finally {
    lane.inFlight--;
    const next = lane.waiting.shift();
    if (next) next();
    else if (lane.inFlight === 0) lanes.delete(origin);
  }
}

/** When each target's last run started, by its name and base URL. */
const lastStarts = new Map<string, number>();

/**
 * Waits until the target's last run in this process started at least `minIntervalMs` ago, then counts this one
 * as started. `stop` ends the wait at once (the run is stopped, and sends nothing).
 */
export async function politeStart(config: Pick<TargetConfig, 'name' | 'baseUrl' | 'minIntervalMs'>, stop?: AbortSignal): Promise<void> {
  if (config.minIntervalMs <= 0) return;
  const key = JSON.stringify([config.name, config.baseUrl]);
  const wait = (lastStarts.get(key) ?? Number.NEGATIVE_INFINITY) + config.minIntervalMs - Date.now();
  // Counted before the wait: a second run asked meanwhile waits for this one's turn, not for the last one's.
  lastStarts.set(key, Date.now() + Math.max(0, wait));
  if (wait > 0 && !stop?.aborted)
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done() {
        clearTimeout(timer);
        stop?.removeEventListener('abort', done);
        resolve();
      }
      stop?.addEventListener('abort', done, { once: true });
    });
}
