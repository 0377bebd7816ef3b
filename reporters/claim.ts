// A report claims conformance to profiles (contracts/profiles.yaml), never to more than its run exercised: by
// default every profile, or those CONFORMANCE_CLAIM names. Each profile's status is said whether it is claimed
// or not; only the claimed ones can give a pass.

import { countOf } from './counts.ts';

/** What the claim reads of a clause's result (reporters/conformance-result.ts). */
interface JudgedClause {
  level: string;
  profile?: string;
  status: string;
}

/** A profile as the catalogue defines it. */
export interface ProfileDefinition {
  name: string;
  title: string;
  needs: string;
}

/**
 * met: every MUST clause of it exercised and met (known deviations aside); violated: one failed; errored: one
 * could not be judged; partial: some exercised and met, others not exercised; not-exercised: none exercised
 * (the input it needs was not given); not-judged: a clause of it did not run in this run (a --grep, an interruption).
 */
export type ProfileStatus = 'met' | 'violated' | 'errored' | 'not-judged' | 'partial' | 'not-exercised';

export interface ProfileResult extends ProfileDefinition {
  claimed: boolean;
  status: ProfileStatus;
  /** Its MUST clauses by status, as the report's summary counts them. */
  must: { passed: number; failed: number; errored: number; notExercised: number; knownDeviations: number; notJudged: number; total: number };
}

export interface Claim {
  /** The profiles claimed, in the catalogue's order. */
  profiles: string[];
  /** True when CONFORMANCE_CLAIM named them; false when the run claims every profile. */
  narrowed: boolean;
  byProfile: ProfileResult[];
}

function countsOf(clauses: JudgedClause[]): ProfileResult['must'] {
  // A MUST clause is never observed: the profile's counts have no such field.
  const { observed: _never, ...counts } = countOf(clauses);
  return { ...counts, total: clauses.length };
}

function statusOf(must: ProfileResult['must']): ProfileStatus {
  if (must.failed > 0) return 'violated';
  if (must.errored > 0) return 'errored';
  if (must.notJudged > 0) return 'not-judged';
  if (must.notExercised === must.total) return 'not-exercised';
  return must.notExercised > 0 ? 'partial' : 'met';
}

/** The claim of a report: each profile's status from its MUST clauses, and which are claimed (all when `claimed` is undefined). */
export function claimOf(clauses: JudgedClause[], profiles: ProfileDefinition[], claimed: string[] | undefined): Claim {
  const names = claimed ?? profiles.map((p) => p.name);
  const byProfile = profiles.map((p): ProfileResult => {
    const must = countsOf(clauses.filter((c) => c.level === 'MUST' && c.profile === p.name));
    return { ...p, claimed: names.includes(p.name), status: statusOf(must), must };
  });
  return { profiles: profiles.filter((p) => names.includes(p.name)).map((p) => p.name), narrowed: claimed !== undefined, byProfile };
}

/** The MUST clauses a report's verdict rests on: those of the claimed profiles, and any the catalogue puts in no profile. */
export function claimedClauses<C extends JudgedClause>(clauses: C[], claim: Claim): C[] {
  return clauses.filter((c) => c.level === 'MUST' && (c.profile === undefined || claim.profiles.includes(c.profile)));
}

/** What a claim that was not exercised in full lacks, in the words of the settings that supply it. */
export function missingInputs(claim: Claim): ProfileResult[] {
  return claim.byProfile.filter((p) => p.claimed && (p.status === 'not-exercised' || p.status === 'partial'));
}
