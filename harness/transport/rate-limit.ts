import { rateLimitOverDeadline, rateLimitPersists, rateLimitWaitTooLong } from './transport-failures.ts';

// The document says nothing of rate limits (section 8: "not shown"), so a 429 (RFC 6585, 4) is no verdict
// on anything: the suite waits as asked and tries again, a few times and within the request's deadline.

/** Retries after a 429, at most. */
export const MAX_RETRIES = 3;
/** The longest wait before a retry; a target that asks for more is not waited for. */
export const MAX_WAIT_MS = 10_000;
/** The wait before the first retry when the target gives no Retry-After; it doubles each time. */
const FIRST_WAIT_MS = 250;

/** Retry-After (RFC 9110, 10.2.3), delay-seconds or an HTTP-date, as milliseconds from `now`; undefined when unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** How long to wait before trying a 429 again, or why the suite will not. */
export function nextTry(
  retryAfter: string | undefined,
  retriesSoFar: number,
  remainingMs: number,
  timeoutMs: number,
  now = Date.now(),
): { waitMs: number } | { failure: string } {
  if (retriesSoFar >= MAX_RETRIES) return { failure: rateLimitPersists(retriesSoFar + 1) };
  const asked = retryAfterMs(retryAfter, now);
  if (asked !== undefined && asked > MAX_WAIT_MS) return { failure: rateLimitWaitTooLong(asked, MAX_WAIT_MS) };
  const waitMs = asked ?? FIRST_WAIT_MS * 2 ** retriesSoFar;
  if (waitMs >= remainingMs) return { failure: rateLimitOverDeadline(waitMs, timeoutMs) };
  return { waitMs };
}
