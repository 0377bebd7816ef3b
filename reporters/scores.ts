import type { ProfileStatus } from './claim.ts';
import type { ConformanceReport } from './conformance-result.ts';

// A fleet's score for each claimed profile: the share of the targets that exercised it that meet it, overall and
// by each value of each tag of the inventory (a fleet file's tags). Where no target exercised a profile the score
// is insufficient-data, never 0 % nor 100 %. One place for the shape; the matrix (matrix-result.ts) carries it,
// its page, summary.md and the metrics read it.

/** A profile's score over some targets: how many meet it of how many exercised it. */
export interface Score {
  /** Targets that claim the profile and meet it (every MUST clause of it exercised and met). */
  met: number;
  /** Targets that claim the profile and exercised it: met, violated, errored or partial (not exercised, not judged: neither). */
  judged: number;
  /** met / judged, 0 to 1; absent with insufficient-data. */
  share?: number;
  /** `insufficient-data` where no target exercised the profile. */
  status: 'scored' | 'insufficient-data';
}

/** One claimed profile's score, overall and by each tag's values. */
export interface ProfileScore extends Score {
  profile: string;
  byTag: Record<string, Record<string, Score>>;
}

/** A profile's status as a score counts it: met, judged (exercised) but not met, or not counted. */
function countOf(status: ProfileStatus): 'met' | 'judged' | undefined {
  if (status === 'met') return 'met';
  return status === 'violated' || status === 'errored' || status === 'partial' ? 'judged' : undefined;
}

interface Tally {
  met: number;
  judged: number;
}

const scoreOf = ({ met, judged }: Tally): Score =>
  judged === 0 ? { met, judged, status: 'insufficient-data' } : { met, judged, share: met / judged, status: 'scored' };

/** What a score keeps of one target's report: its tags and each claimed profile's status. */
export type Scored = Pick<ConformanceReport, 'tags'> & { claim: { byProfile: { name: string; claimed: boolean; status: ProfileStatus }[] } };

/** Scores added up target by target, holding counts only: a fleet's size does not grow it past its tags' values. */
export class ScoreTally {
  private readonly overall = new Map<string, Tally>();
  private readonly byTag = new Map<string, Map<string, Map<string, Tally>>>();

  add(report: Scored): void {
    for (const profile of report.claim.byProfile) {
      if (!profile.claimed) continue;
      const counted = countOf(profile.status);
      bump(this.overall, profile.name, counted);
      const tags = this.byTag.get(profile.name) ?? new Map<string, Map<string, Tally>>();
      this.byTag.set(profile.name, tags);
      for (const [tag, value] of Object.entries(report.tags ?? {})) {
        const values = tags.get(tag) ?? new Map<string, Tally>();
        tags.set(tag, values);
        bump(values, value, counted);
      }
    }
  }

  /** Each profile claimed by a target, in the order first claimed; its score and its tags' values, sorted. */
  scores(): ProfileScore[] {
    return [...this.overall].map(([profile, tally]) => ({
      profile,
      ...scoreOf(tally),
      byTag: Object.fromEntries(
        [...(this.byTag.get(profile) ?? [])]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([tag, values]) => [tag, Object.fromEntries([...values].sort(([a], [b]) => a.localeCompare(b)).map(([v, t]) => [v, scoreOf(t)]))]),
      ),
    }));
  }
}

function bump(tallies: Map<string, Tally>, key: string, counted: 'met' | 'judged' | undefined): void {
  const tally = tallies.get(key) ?? { met: 0, judged: 0 };
  tallies.set(key, tally);
  if (counted === undefined) return;
  tally.judged++;
  if (counted === 'met') tally.met++;
}

/** A score in words: `97.5 % (39 of 40)`, or that no target exercised it. */
export const scoreText = (score: Score): string =>
  score.status === 'insufficient-data'
    ? 'insufficient data: no target exercised it'
    : `${(Math.floor((score.share ?? 0) * 1000) / 10).toFixed(1)} % (${score.met} of ${score.judged})`;
