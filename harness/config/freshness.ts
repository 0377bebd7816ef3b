// What makes a result stale: older than a bound given as minutes, hours or days (`90m`, `24h`, `7d`). One
// definition for `merge --stale-after`, the history's `stale` label (CONFORMANCE_STALE_AFTER) and whoever else
// asks how fresh a verdict is.

/** The variable that bounds how old a clause's last verdict in the history may be before it is `stale`. */
export const STALE_AFTER_VARIABLE = 'CONFORMANCE_STALE_AFTER';

/** A bound as given, and in minutes. */
export interface Freshness {
  minutes: number;
  given: string;
}

/** A duration as `--stale-after` takes it: minutes, hours or days (`90m`, `24h`, `7d`), in minutes; undefined if it is none. */
export function staleAfterMinutes(text: string): number | undefined {
  const match = /^([1-9]\d{0,6})([mhd])$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * { m: 1, h: 60, d: 24 * 60 }[match[2] as 'm' | 'h' | 'd'];
}

/** The words a refused bound is said in, the same for the option and the variable. */
export const FRESHNESS_WORDS = 'takes minutes, hours or days, as 90m, 24h or 7d';

/** Whether a verdict taken at `startedAt` is older than the bound at `now`. */
export const isStale = (startedAt: string, now: string, bound: Freshness) => (Date.parse(now) - Date.parse(startedAt)) / 60_000 > bound.minutes;
