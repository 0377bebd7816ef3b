import { isQuarantine } from '../harness/config/quarantine.ts';
import type { KnownDeviation } from '../harness/config/deviations.ts';
import type { Confirmation } from '../harness/judging/confirmation-report.ts';
import type { ClauseStatus } from './counts.ts';

// The quarantine: a known deviation of kind `flaky` excuses a clause that fails, or that is flaky (failed, then
// passed when its requests were sent again: errored, with its confirmation), until it expires; it never excuses an
// error of another kind, and a clause that passes is a pass. What is quarantined is a debt, which every report shows.

/** A quarantine's state for a clause's outcome, in the words of every deviation's state. */
export function quarantineState(
  status: ClauseStatus,
  confirmation: Confirmation | undefined,
  deviation: KnownDeviation,
  today: string,
): 'applied' | 'expired' | 'not-applicable' {
  if (deviation.expires === undefined || deviation.expires <= today) return 'expired';
  const flaky = status === 'errored' && (confirmation?.passed ?? 0) > 0;
  return status === 'failed' || flaky ? 'applied' : 'not-applicable';
}

/** One quarantined clause as the debt lists it. */
export interface Quarantined {
  clause: string;
  reason: string;
  expires: string;
  since?: string;
  /** Whether it excused this run's outcome, no longer holds, or had nothing to excuse. */
  state: 'applied' | 'expired' | 'not-applicable';
}

/** What is quarantined (conformance.json's `quarantine`): how many, until when, the first to end and the oldest. */
export interface QuarantineDebt {
  count: number;
  /** How many of them have expired: they excuse nothing any more. */
  expired: number;
  /** The first day one of them ends. */
  firstExpiry: string;
  /** The quarantine accepted first, where they say since when. */
  oldest?: { clause: string; since: string };
  clauses: Quarantined[];
}

/** The quarantine's debt, from the clauses' deviations as the report applied them; none when nothing is quarantined. */
export function quarantineDebt(clauses: { deviation?: KnownDeviation & { state: string } }[]): QuarantineDebt | undefined {
  const quarantined = clauses.flatMap(({ deviation: d }) =>
    d && isQuarantine(d)
      ? [{ clause: d.clause, reason: d.reason, expires: d.expires ?? '', ...(d.since && { since: d.since }), state: d.state as Quarantined['state'] }]
      : [],
  );
  if (quarantined.length === 0) return undefined;
  const dated = quarantined.filter((q): q is Quarantined & { since: string } => q.since !== undefined).sort((a, b) => a.since.localeCompare(b.since));
  return {
    count: quarantined.length,
    expired: quarantined.filter((q) => q.state === 'expired').length,
    firstExpiry: quarantined.map((q) => q.expires).sort()[0],
    ...(dated.length > 0 && { oldest: { clause: dated[0].clause, since: dated[0].since } }),
    clauses: quarantined,
  };
}
