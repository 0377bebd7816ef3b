import { isRfc3339DateTime } from './rfc3339.ts';

// Section 3's one state rule turns on when a signup token has expired: defined here once, for the check that
// judges it and for the reference server's fault that breaks it.

/**
 * Clocks differ between the suite and the target; a token that expired less than this long before the
 * request may still be live on the target's clock, so it is not counted as expired.
 */
export const CLOCK_SKEW_MS = 60_000;

/** Whether a token whose expiresAt is `expiresAt` had expired, beyond any clock skew, at `at` (milliseconds). */
export function isExpired(expiresAt: unknown, at: number): boolean {
  if (typeof expiresAt !== 'string' || !isRfc3339DateTime(expiresAt)) return false;
  // Date.parse knows no leap second (23:59:60); a second earlier judges the same.
  return Date.parse(expiresAt.replace(/:60(?=[.Zz+-])/, ':59')) < at - CLOCK_SKEW_MS;
}
