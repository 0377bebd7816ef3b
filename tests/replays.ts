import type { TestResult } from '@playwright/test/reporter';
import { forTheLog } from '../harness/files/visible.ts';
import type { Replay } from './replay-file.ts';
import type { ClauseResult, ClauseStatus, ConformanceReport } from '../reporters/conformance-result.ts';

// What each clause's test does, read off the reports the engine built: the workers replay it (replay-file.ts).

/** What a clause's test does with the status its target's report gave it, in words Playwright prints to a CI log. */
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

/** Every clause's replay for one target, as its report gives each. */
const replaysOf = (report: ConformanceReport): Record<string, Replay> => Object.fromEntries(report.clauses.map((c) => [c.id, replayOf(c)]));

/** How a test that replays `status` ends, as Playwright reports it: a known deviation is an expected failure. */
export function testStatusOf(status: ClauseStatus): TestResult['status'] {
  if (status === 'passed') return 'passed';
  if (status === 'failed' || status === 'errored' || status === 'known-deviation') return 'failed';
  return 'skipped';
}

// Which of the targets' replays a fleet's test replays: a violation anywhere fails it, then an error, then an
// expected failure; a clause met anywhere passes; otherwise it is skipped as the most targets' is.
const FLEET_ORDER: ClauseStatus[] = ['failed', 'errored', 'known-deviation', 'passed', 'not-judged', 'not-exercised', 'observed'];

/** The targets a fleet test's message names one by one; the others are counted. */
const NAMED_TARGETS = 5;
/** The most characters of one target's words in a fleet test's message. */
const TARGET_WORDS = 400;

const cut = (text: string, chars: number) => (text.length > chars ? `${text.slice(0, chars)}…` : text);

/** One test's replay for a clause of every target of a fleet: its status, and the targets that gave it, named. */
export function fleetReplay(byTarget: { target: string; replay: Replay }[]): Replay {
  const status = FLEET_ORDER.find((s) => byTarget.some((t) => t.replay.status === s)) ?? 'not-judged';
  const giving = byTarget.filter((t) => t.replay.status === status);
  const share = `${giving.length} of ${byTarget.length} targets`;
  if (status === 'passed') return { status, share };
  const named = giving.slice(0, NAMED_TARGETS).map((t) => `${t.target}: ${cut(t.replay.message ?? status, TARGET_WORDS)}`);
  const more = giving.length > NAMED_TARGETS ? [`…and ${giving.length - NAMED_TARGETS} more`] : [];
  const message = [`${share}: ${status} (each target's report has its detail)`, ...named, ...more].join('\n');
  return status === 'known-deviation' ? { status, message, share, deviation: `${giving.length} targets' known deviations` } : { status, message, share };
}

/**
 * Each project's replays, by clause, read off the targets' reports: one project per target (by name, '' for a
 * single target), or, for a fleet, one project ('') whose tests replay every target's verdicts together. A target
 * that left nothing to judge skips every test, with its problem.
 */
export function replaysOfRun(
  targets: { name: string; report: ConformanceReport; problem?: string }[],
  projects: string[] | undefined,
): Record<string, Record<string, Replay>> {
  const each = targets.map((t) => ({
    target: t.name,
    replays: t.problem === undefined ? replaysOf(t.report) : notJudged(t.report, t.problem),
  }));
  if (projects !== undefined) return Object.fromEntries(each.map((t) => [t.target, t.replays]));
  if (each.length === 1) return { '': each[0].replays };
  const byClause = targets[0].report.clauses.map((c) => [c.id, fleetReplay(each.map((t) => ({ target: t.target, replay: t.replays[c.id] })))]);
  return { '': Object.fromEntries(byClause) };
}

const notJudged = (report: ConformanceReport, problem: string): Record<string, Replay> =>
  Object.fromEntries(report.clauses.map((c) => [c.id, { status: 'not-judged', message: `not judged: ${problem}` }]));
