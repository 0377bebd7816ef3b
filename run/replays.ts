import { forTheLog } from '../harness/files/visible.ts';
import type { ClauseResult, ClauseStatus, ConformanceReport } from '../reporters/conformance-result.ts';

// What each clause's test does under a test runner, read off the reports the engine built: a runner's tests replay
// it (tests/replay.ts). For a fleet, one test per clause carries every target, its replay added up target by
// target (FleetReplays) as each report is written and let go, or all at once from the reports (replaysOfRun).

/** What one clause's test does: its status as the report gives it, and the words it fails or skips with. */
export interface Replay {
  status: ClauseStatus;
  message?: string;
  /** Why a failure is expected: the known deviation that excuses it. */
  deviation?: string;
  /** For a fleet's test: how many of its targets gave the status (`5 of 50 targets`). */
  share?: string;
}

/** What a clause's test does with the status its target's report gave it, in words a runner prints to a CI log. */
function replayOf(result: ClauseResult): Replay {
  const replay = wordsOf(result);
  return { ...replay, message: replay.message && forTheLog(replay.message), deviation: replay.deviation && forTheLog(replay.deviation) };
}

function wordsOf(result: ClauseResult): Replay {
  if (result.status === 'not-exercised') return { status: result.status, message: `not exercised: ${result.reason}` };
  if (result.status === 'observed') return { status: result.status, message: 'observed: recorded, never judged (the document leaves it open)' };
  if (result.status === 'known-deviation') return { status: result.status, message: result.reason, deviation: result.deviation?.reason };
  if (result.status === 'not-judged') return { status: result.status, message: `not judged: ${result.reason}` };
  return { status: result.status, message: result.reason };
}

/** Every clause's replay for one target, as its report gives each; a target that left nothing to judge skips every one, with its problem. */
const replaysOf = (report: ConformanceReport, problem?: string): Record<string, Replay> =>
  Object.fromEntries(report.clauses.map((c) => [c.id, problem === undefined ? replayOf(c) : { status: 'not-judged', message: `not judged: ${problem}` }]));

// Which of the targets' replays a fleet's test replays: a violation anywhere fails it, then an error, then an
// expected failure; a clause met anywhere passes; otherwise it is skipped as the most targets' is.
const FLEET_ORDER: ClauseStatus[] = ['failed', 'errored', 'known-deviation', 'passed', 'not-judged', 'not-exercised', 'observed'];

/** The targets a fleet test's message names one by one; the others are counted. */
const NAMED_TARGETS = 5;
/** The most characters of one target's words in a fleet test's message. */
const TARGET_WORDS = 400;

const cut = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars)}…` : text);

/** A fleet test's replay: its status, how many of how many targets gave it, and the first few of them named with their words. */
function fleetReplayOf(status: ClauseStatus, giving: number, of: number, named: { target: string; message?: string }[]): Replay {
  const share = `${giving} of ${of} targets`;
  if (status === 'passed') return { status, share };
  const lines = named.slice(0, NAMED_TARGETS).map((t) => `${t.target}: ${cut(t.message ?? status, TARGET_WORDS)}`);
  const more = giving > NAMED_TARGETS ? [`…and ${giving - NAMED_TARGETS} more`] : [];
  const message = [`${share}: ${status} (each target's report has its detail)`, ...lines, ...more].join('\n');
  return status === 'known-deviation' ? { status, message, share, deviation: `${giving} targets' known deviations` } : { status, message, share };
}

/** One test's replay for a clause of every target of a fleet: its status, and the targets that gave it, named. */
export function fleetReplay(byTarget: { target: string; replay: Replay }[]): Replay {
  const status = FLEET_ORDER.find((s) => byTarget.some((t) => t.replay.status === s)) ?? 'not-judged';
  const giving = byTarget.filter((t) => t.replay.status === status);
  return fleetReplayOf(
    status,
    giving.length,
    byTarget.length,
    giving.map((t) => ({ target: t.target, message: t.replay.message })),
  );
}

/**
 * Each project's replays, by clause, read off the targets' reports: one project per target (by name, '' for a
 * single target), or, for a fleet, one project ('') whose tests replay every target's verdicts together.
 */
export function replaysOfRun(
  targets: { name: string; report: ConformanceReport; problem?: string }[],
  projects: string[] | undefined,
): Record<string, Record<string, Replay>> {
  const each = targets.map((t) => ({ target: t.name, replays: replaysOf(t.report, t.problem) }));
  if (projects !== undefined) return Object.fromEntries(each.map((t) => [t.target, t.replays]));
  if (each.length === 1) return { '': each[0].replays };
  const byClause = targets[0].report.clauses.map((c) => [c.id, fleetReplay(each.map((t) => ({ target: t.target, replay: t.replays[c.id] })))]);
  return { '': Object.fromEntries(byClause) };
}

/** What a fleet's test keeps of one status of its clause: how many targets gave it, and the first few, by place, with their words. */
interface Giving {
  count: number;
  named: { place: number; target: string; message?: string }[];
}

/**
 * A fleet's replays added up target by target, in any order, each target given its place among the run's: for each
 * clause, a count per status and the first few targets' words, never a report, so that what a fleet's tests carry
 * does not grow with its size. Its replays are those replaysOfRun reads off every report at once.
 */
export class FleetReplays {
  private readonly clauses = new Map<string, Map<ClauseStatus, Giving>>();
  private targets = 0;

  /** Adds the report of the target at `place`, named `target`; `problem`, why it left nothing to judge. */
  add(place: number, target: string, report: ConformanceReport, problem?: string): void {
    this.targets++;
    for (const [id, replay] of Object.entries(replaysOf(report, problem))) {
      const statuses = this.clauses.get(id) ?? new Map<ClauseStatus, Giving>();
      this.clauses.set(id, statuses);
      const giving = statuses.get(replay.status) ?? { count: 0, named: [] };
      statuses.set(replay.status, giving);
      giving.count++;
      // The first few by place, as the targets are listed: the order the targets' judging ended in is no one's.
      giving.named.push({ place, target, message: replay.message });
      giving.named.sort((a, b) => a.place - b.place).splice(NAMED_TARGETS);
    }
  }

  /** Each clause's replay, by id, in the order the reports list them. */
  replays(): Record<string, Replay> {
    return Object.fromEntries(
      [...this.clauses].map(([id, statuses]) => {
        const status = FLEET_ORDER.find((s) => statuses.has(s)) ?? 'not-judged';
        const giving = statuses.get(status) ?? { count: 0, named: [] };
        return [id, fleetReplayOf(status, giving.count, this.targets, giving.named)];
      }),
    );
  }
}
