import { expect as baseExpect, type TestDetails, type TestInfo } from '@playwright/test';
import type { Clause } from './catalogue.ts';
import type { KnownDeviation } from './deviations.ts';
import { describeUnevaluable, describeViolations } from './format.ts';
import type { ClauseVerdict, TargetVerdicts } from './verdicts.ts';
import {
  STOPPED_ANNOTATION,
  VERDICTS_VARIABLE,
  awaitVerdicts,
  inheritedCatalogue,
  readyVerdicts,
  type JudgedTargets,
  type RunVerdicts,
} from './verdicts-file.ts';

// A test replays the verdict the judge gave its clause in the runner; it judges nothing itself.

/**
 * The clauses to replay, one test each: the catalogue global setup read, or, where no global setup ran
 * (`--list`), the catalogue file itself. Only then are YAML and the catalogue's schema loaded.
 */
export function clausesToReplay(): Clause[] {
  return inheritedCatalogue() ?? (require('./catalogue') as typeof import('./catalogue')).loadCatalogue();
}

/**
 * The run's verdicts. The first test of a run may ask while the runner still judges (harness/judging.ts):
 * it waits without a test timeout, which would otherwise count a slow target against a test that sends
 * nothing; the run's own timeout bounds the wait.
 */
export async function runVerdicts(testInfo: Pick<TestInfo, 'timeout' | 'setTimeout'>): Promise<RunVerdicts> {
  const dir = process.env[VERDICTS_VARIABLE];
  if (!dir) throw new Error('no verdicts: run the suite through its Playwright config, whose global setup has the target judged');
  const ready = readyVerdicts(dir);
  if (ready) return ready;
  const timeout = testInfo.timeout;
  const since = performance.now();
  testInfo.setTimeout(0);
  const verdicts = await awaitVerdicts(dir);
  testInfo.setTimeout(timeout === 0 ? 0 : timeout + Math.ceil(performance.now() - since));
  return verdicts;
}

function verdictsOf(run: { targets: JudgedTargets }, project: string): TargetVerdicts {
  const target = run.targets[project];
  if (!target) throw new Error(`no verdicts for the target "${project}"`);
  return target;
}

export const expect = baseExpect.extend({
  toConform(verdict: ClauseVerdict, clause: Clause) {
    const pass = verdict.outcome !== 'failed';
    return {
      pass,
      name: 'toConform',
      message: () => (pass ? `clause ${clause.id} was expected to be violated, and it was not` : describeViolations(clause, verdict.evidence)),
    };
  },
});

/** The deviation that excuses a failure of this clause today, if the target has one. */
function activeDeviation(deviations: KnownDeviation[], clause: string): KnownDeviation | undefined {
  const today = new Date().toISOString().slice(0, 10);
  return deviations.find((d) => d.clause === clause && (d.expires === undefined || d.expires > today));
}

const factsSent = new Set<string>();

/** Replays the judge's verdict on one clause in its test. */
export async function replay(clause: Clause, testInfo: TestInfo): Promise<void> {
  const run = await runVerdicts(testInfo);
  if ('stopped' in run) {
    // Not judged, and no failure of its own: the run's one error says why (global setup's teardown throws it).
    testInfo.annotations.push({ type: STOPPED_ANNOTATION, description: run.stopped });
    return testInfo.skip(true, `not judged: ${run.stopped}`);
  }
  const { facts, clauses } = verdictsOf(run, testInfo.project.name);
  const verdict = clauses[clause.id];
  if (!verdict) throw new Error(`the judge gave no verdict on ${clause.id}`);
  attachJson(testInfo, 'conformance-evidence', verdict.evidence);
  // The facts travel with the first test each worker runs for a target: every shard's blob then has them,
  // and the reporter reads them from whichever test holds them.
  if (!factsSent.has(testInfo.project.name)) {
    factsSent.add(testInfo.project.name);
    attachJson(testInfo, 'conformance-run', facts);
  }
  const { outcome } = verdict;
  testInfo.annotations.push({ type: 'outcome', description: outcome });
  if (outcome === 'not-exercised') testInfo.skip(true, `not exercised: needs ${clause.needs ?? 'input the target did not provide'}`);
  // The document leaves an INFO clause open: its observation is recorded, and no runner may count it passed.
  if (clause.level === 'INFO' && outcome === 'passed') testInfo.skip(true, 'observed: recorded, never judged (the document leaves it open)');
  // A failure the target's deviations file accepts is an expected failure: JUnit and Playwright's own
  // summary then agree with the gate, and the worker is not restarted for it.
  const deviation = outcome === 'failed' ? activeDeviation(facts.deviations, clause.id) : undefined;
  if (deviation) testInfo.fail(true, `known deviation: ${deviation.reason}`);
  // A clause met has nothing to say; a step or an assertion would only cost each test a captured stack.
  if (outcome === 'errored') throw new Error(describeUnevaluable(clause, verdict.evidence, verdict.crash));
  if (outcome === 'failed') expect(verdict).toConform(clause);
}

/**
 * Pushed rather than `testInfo.attach`ed: the same attachment in every report, without the step and the
 * per-test output folder that `attach` makes (a few milliseconds a test, most of a replay's cost).
 */
function attachJson(testInfo: TestInfo, name: string, value: unknown): void {
  testInfo.attachments.push({ name, contentType: 'application/json', body: Buffer.from(JSON.stringify(value)) });
}

/** The title of a clause's test: its sentence, and its id, which puts it in every report line and JUnit name and lets `--grep <id>` select it. */
export const titleOf = (clause: Clause) => `${clause.title} [${clause.id}]`;

/** The details of a clause's test: its level as a tag, its id and section as annotations. */
export const detailsOf = (clause: Clause): TestDetails => ({
  tag: [`@${clause.level}`],
  annotation: [
    { type: 'clause', description: clause.id },
    { type: 'section', description: clause.section },
  ],
});
