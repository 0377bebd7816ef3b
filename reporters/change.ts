import type { ClauseStatus } from './counts.ts';

// What a clause's change between two runs means: the words of `admin-api-conformance diff` (reporters/diff.ts)
// and of a run compared with its baseline (reporters/baseline.ts), in one place.

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
