import type { ClauseStatus } from './counts.ts';

// What a clause's change between two runs means: the words of `admin-api-conformance diff` (reporters/diff.ts),
// of a run compared with its baseline (reporters/baseline.ts) and of a clause's transition against the run
// history (reporters/transition.ts), in one place, with the one comparison of two statuses they share.

/** What a clause's change means, from the old run to the new: each kind, in the order a diff lists them. */
export const CHANGE_KINDS = [
  'regressed',
  'deviation-ended',
  'fixed',
  'deviation-added',
  'newly-exercised',
  'no-longer-exercised',
  'evidence-changed',
  'observation-changed',
  'status-changed',
  'changed-by-document',
  'clause-added',
  'clause-removed',
] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The kinds that make the new run worse than the old: a diff with any of them exits 1, and so does a run held to its baseline (reporters/gate.ts). */
export const REGRESSIONS: readonly ChangeKind[] = ['regressed', 'deviation-ended'];

/** One clause of one target that changed from the old run to the new. */
export interface ClauseChange {
  target: string;
  id: string;
  level: string;
  kind: ChangeKind;
  from?: ClauseStatus;
  to?: ClauseStatus;
  /** Why, in a line: the new run's reason or its first violation. */
  why?: string;
}

/** The statuses that are a verdict on the clause; the others (errored, not exercised, not judged) are none. */
const JUDGED: readonly ClauseStatus[] = ['passed', 'failed', 'known-deviation', 'observed'];

/** How a clause's status changed from one run to the next; undefined when it is the same. */
export function statusChange(from: ClauseStatus, to: ClauseStatus): ChangeKind | undefined {
  if (from === to) return undefined;
  const [wasJudged, isJudged] = [JUDGED.includes(from), JUDGED.includes(to)];
  if (!wasJudged && isJudged) return 'newly-exercised';
  if (wasJudged && !isJudged) return 'no-longer-exercised';
  if (to === 'failed') return from === 'known-deviation' ? 'deviation-ended' : 'regressed';
  // A clause that passed and now fails under a known deviation regressed: the deviation only excuses it.
  if (to === 'known-deviation') return from === 'passed' ? 'regressed' : 'deviation-added';
  if (to === 'passed' && (from === 'failed' || from === 'known-deviation')) return 'fixed';
  return 'status-changed';
}
