import { ConfigError } from '../files/config-error.ts';
import type { Source } from './sources.ts';

// A run's timings and bounds: how long a request and the whole run may take, how large a body may be, how many
// times the plan is sent and how many requests are in flight at once; each a positive whole number within its bound.

/** Bounds of the numeric settings: a timer holds at most 2^31 - 1 ms (a longer one fires at once), and a run stays a run. */
const LIMITS = {
  timeoutMs: 2 ** 31 - 1,
  repeat: 1_000,
  concurrency: 64,
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
}

/** The run's timings and bounds, each checked in this order, or its default. */
export function boundsOf(source: Source): Bounds {
  return {
    timeoutMs: parsePositiveInt('CONFORMANCE_TIMEOUT_MS', source.CONFORMANCE_TIMEOUT_MS, 30_000, LIMITS.timeoutMs),
    runTimeoutMs: parsePositiveInt('CONFORMANCE_RUN_TIMEOUT_MS', source.CONFORMANCE_RUN_TIMEOUT_MS, 10 * 60_000, LIMITS.timeoutMs),
    maxBodyBytes: parsePositiveInt('CONFORMANCE_MAX_BODY_BYTES', source.CONFORMANCE_MAX_BODY_BYTES, 256 * 1024 * 1024, LIMITS.maxBodyBytes),
    repeat: parsePositiveInt('CONFORMANCE_REPEAT', source.CONFORMANCE_REPEAT, 1, LIMITS.repeat),
    concurrency: parsePositiveInt('CONFORMANCE_CONCURRENCY', source.CONFORMANCE_CONCURRENCY, 4, LIMITS.concurrency),
  };
}
