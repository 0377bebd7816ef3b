import type { TestResult } from '@playwright/test/reporter';
import { runStopped } from '../recording/preflight.ts';
import type { Replay } from './replay-file.ts';
import type { RunJudgement, TargetJudgement } from './run-judgement.ts';
import { clauseResults, type ClauseResult, type ClauseStatus } from '../../reporters/conformance-result.ts';

// What each clause's test does, computed once from the judgement: the workers replay it (replay-file.ts), and
// the reporter checks each test ended as its replay said it would (conformance-reporter.ts).

/**
 * The most targets a run carries as one Playwright project each. Beyond, a fleet: one test per clause carries
 * every target's verdict on it, so that neither a worker per target nor a restart per failing clause of each
 * target grows with the fleet; each target's detail is in its own report.
 */
export const PROJECTS_AT_MOST = 8;

/** The Playwright projects of a run, one per target, by name; none for a single target or a fleet. */
export const projectsOf = (run: { multi: boolean; targets: { name: string }[] }): string[] | undefined =>
  run.multi && run.targets.length <= PROJECTS_AT_MOST ? run.targets.map((t) => t.name) : undefined;

/** Whether the run is a fleet: several targets, beyond as many as have a project each. */
export const isFleet = (run: { multi: boolean; targets: { name: string }[] }) => run.multi && projectsOf(run) === undefined;

/** What a clause's test does with the status the report will give it. */
function replayOf(result: ClauseResult): Replay {
  if (result.status === 'not-exercised') return { status: result.status, message: `not exercised: ${result.reason}` };
  if (result.status === 'observed') return { status: result.status, message: 'observed: recorded, never judged (the document leaves it open)' };
  if (result.status === 'known-deviation') return { status: result.status, message: result.reason, deviation: result.deviation?.reason };
  return { status: result.status, message: result.reason };
}

/** Every clause's replay for one target: a target that left nothing to judge skips them all, with its problem. */
function replaysOf(target: TargetJudgement, judgement: Pick<RunJudgement, 'catalogue' | 'today'>): Record<string, Replay> {
  const { catalogue, today } = judgement;
  if (target.problem !== undefined) {
    const message = `not judged: ${runStopped(target.problem).message}`;
    return Object.fromEntries(catalogue.map((c) => [c.id, { status: 'not-judged', message }]));
  }
  const results = clauseResults(catalogue, target.runs, { deviations: target.facts.deviations, today, runStatus: 'passed', runErrors: [] });
  return Object.fromEntries(results.map((r) => [r.id, replayOf(r)]));
}

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
  if (status === 'passed') return { status };
  const named = giving.slice(0, NAMED_TARGETS).map((t) => `${t.target}: ${cut(t.replay.message ?? status, TARGET_WORDS)}`);
  const more = giving.length > NAMED_TARGETS ? [`…and ${giving.length - NAMED_TARGETS} more`] : [];
  const message = [`${giving.length} of ${byTarget.length} targets: ${status} (each target's report has its detail)`, ...named, ...more].join('\n');
  return status === 'known-deviation' ? { status, message, deviation: `${giving.length} targets' known deviations` } : { status, message };
}

/**
 * Each project's replays, by clause: one project per target (by name, '' for a single target), or, for a
 * fleet, one project ('') whose tests replay every target's verdicts together.
 */
export function replaysOfRun(judgement: Pick<RunJudgement, 'catalogue' | 'today' | 'targets'>, fleet: boolean): Record<string, Record<string, Replay>> {
  const each = judgement.targets.map((t) => ({ target: t.config.name, project: t.project, replays: replaysOf(t, judgement) }));
  if (!fleet) return Object.fromEntries(each.map((t) => [t.project, t.replays]));
  const byClause = judgement.catalogue.map((c) => [c.id, fleetReplay(each.map((t) => ({ target: t.target, replay: t.replays[c.id] })))]);
  return { '': Object.fromEntries(byClause) };
}
