import { ConfigError } from '../files/config-error.ts';
import type { KnownDeviation } from './deviations.ts';
import type { Source } from './sources.ts';

// Flaky clauses: how many times a failure's requests are sent again to confirm it (CONFORMANCE_CONFIRM), and the
// quarantine, a known deviation of kind `flaky`, which must say until when it holds, and of which at most
// CONFORMANCE_QUARANTINE_MAX may be open at once: a quarantine is a debt, and its ceiling keeps it from growing unseen.

/** The default ceiling on quarantined clauses. */
export const QUARANTINE_MAX = 5;

/** The most confirmations: each sends a failure's requests once more. */
const CONFIRM_MAX = 20;

export interface Confirming {
  /** How many more times a failed clause's requests are sent (CONFORMANCE_CONFIRM); 0, none. */
  confirm: number;
  /** How many clauses may be quarantined at once (CONFORMANCE_QUARANTINE_MAX). */
  quarantineMax: number;
}

function wholeNumber(variable: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${variable} must be a whole number, not "${raw}"`);
  if (Number(raw) > max) throw new ConfigError(`${variable} must be at most ${max}, not ${raw}`);
  return Number(raw);
}

export function confirmingOf(source: Source): Confirming {
  return {
    confirm: wholeNumber('CONFORMANCE_CONFIRM', source.CONFORMANCE_CONFIRM, 0, CONFIRM_MAX),
    quarantineMax: wholeNumber('CONFORMANCE_QUARANTINE_MAX', source.CONFORMANCE_QUARANTINE_MAX, QUARANTINE_MAX, 1_000),
  };
}

export const isQuarantine = (deviation: KnownDeviation): boolean => deviation.kind === 'flaky';

/** The deviations, once each quarantine says until when it holds and there are no more of them than the ceiling. */
export function checkQuarantine(deviations: KnownDeviation[], max: number, file: string | undefined): KnownDeviation[] {
  const where = file === undefined ? 'the known deviations' : `the deviations file ${file}`;
  deviations.forEach((d, i) => {
    if (isQuarantine(d) && d.expires === undefined)
      throw new ConfigError(`${where}, deviation ${i + 1} (${d.clause}): a quarantine (kind: flaky) needs expires, the day it ends`);
  });
  const count = deviations.filter(isQuarantine).length;
  if (count > max)
    throw new ConfigError(
      `${where} quarantines ${count} clauses (kind: flaky), more than the ${max} CONFORMANCE_QUARANTINE_MAX allows: fix some, or raise the ceiling knowingly`,
    );
  return deviations;
}
