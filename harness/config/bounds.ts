import { ConfigError } from '../files/config-error.ts';
import type { Source } from './sources.ts';

// A run's timings and bounds: how long a request and the whole run may take, how large a body may be, how many
// times the plan is sent and how many requests are in flight at once; each a positive whole number within its bound.

/** Bounds of the numeric settings: a timer holds at most 2^31 - 1 ms (a longer one fires at once), and a run stays a run. */
const LIMITS = {
  timeoutMs: 2 ** 31 - 1,
  repeat: 1_000,
  concurrency: 64,
  originConcurrency: 1_024,
  minIntervalMs: 24 * 60 * 60_000,
  maxBodyBytes: 2 ** 31 - 1,
};

function parsePositiveInt(variable: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) throw new ConfigError(`${variable} must be a positive whole number, not "${raw}"`);
  if (Number(raw) > max) throw new ConfigError(`${variable} must be at most ${max}, not ${raw}`);
  return Number(raw);
}

export interface Bounds {
  timeoutMs: number;
  /** The bound on the whole run (CONFORMANCE_RUN_TIMEOUT_MS), so that a stalling target cannot hold a CI job. */
  runTimeoutMs: number;
  maxBodyBytes: number;
  /** How many times the request plan is sent (CONFORMANCE_REPEAT); the first round is the one judged. */
  repeat: number;
  /** How many requests are in flight at once (CONFORMANCE_CONCURRENCY). */
  concurrency: number;
  /**
   * How many requests are in flight at once to one origin, whatever the targets behind it (CONFORMANCE_ORIGIN_CONCURRENCY):
   * a thousand tenants behind one gateway are one client to it, not a thousand.
   */
  originConcurrency: number;
  /** The least time between the starts of two runs of one target in this process (CONFORMANCE_MIN_INTERVAL_MS); 0, none. */
  minIntervalMs: number;
}

/** A whole number of milliseconds, 0 included, within its bound. */
function parseMs(variable: string, raw: string | undefined, max: number): number {
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${variable} must be a whole number of milliseconds, not "${raw}"`);
  if (Number(raw) > max) throw new ConfigError(`${variable} must be at most ${max}, not ${raw}`);
  return Number(raw);
}

/** The default of CONFORMANCE_ORIGIN_CONCURRENCY: four targets' worth of requests at the default concurrency. */
export const ORIGIN_CONCURRENCY = 16;

/** The run's timings and bounds, each checked in this order, or its default. */
export function boundsOf(source: Source): Bounds {
  return {
    timeoutMs: parsePositiveInt('CONFORMANCE_TIMEOUT_MS', source.CONFORMANCE_TIMEOUT_MS, 30_000, LIMITS.timeoutMs),
    runTimeoutMs: parsePositiveInt('CONFORMANCE_RUN_TIMEOUT_MS', source.CONFORMANCE_RUN_TIMEOUT_MS, 10 * 60_000, LIMITS.timeoutMs),
    maxBodyBytes: parsePositiveInt('CONFORMANCE_MAX_BODY_BYTES', source.CONFORMANCE_MAX_BODY_BYTES, 256 * 1024 * 1024, LIMITS.maxBodyBytes),
    repeat: parsePositiveInt('CONFORMANCE_REPEAT', source.CONFORMANCE_REPEAT, 1, LIMITS.repeat),
    concurrency: parsePositiveInt('CONFORMANCE_CONCURRENCY', source.CONFORMANCE_CONCURRENCY, 4, LIMITS.concurrency),
    originConcurrency: parsePositiveInt('CONFORMANCE_ORIGIN_CONCURRENCY', source.CONFORMANCE_ORIGIN_CONCURRENCY, ORIGIN_CONCURRENCY, LIMITS.originConcurrency),
    minIntervalMs: parseMs('CONFORMANCE_MIN_INTERVAL_MS', source.CONFORMANCE_MIN_INTERVAL_MS, LIMITS.minIntervalMs),
  };
}
