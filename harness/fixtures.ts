import { test as base, expect as baseExpect, type TestDetails, type TestInfo } from '@playwright/test';
import { clauseById } from './catalogue.ts';
import type { TargetConfig } from './config.ts';
import type { KnownDeviation } from './deviations.ts';
import { loadTargets, targetOfProject } from './targets.ts';
import { clauseEvidence } from './evidence.ts';
import type { Exchange } from './exchange.ts';
import { describeUnevaluable, describeViolations } from './format.ts';
import { readBody, type Readable } from './inputs.ts';
import { createRedactor, type Redactor } from './redact.ts';
import { schemaChecks } from './schema-findings.ts';
import { Target } from './target.ts';
import { RECORDING_VARIABLE, loadRecording } from './recording.ts';
import type { ClauseCheck } from './verdict.ts';

export interface Fetched {
  exchange: Exchange;
  readable: Readable;
}

export interface SignupTokenRun {
  /** One entry per configured secret, in the configured order. */
  fetched: (Fetched & { secret: string })[];
  schema: Map<string, ClauseCheck>;
}

export interface ProjectsRun {
  plain: Fetched;
  archivedTrue: Fetched;
  archivedFalse: Fetched;
  schema: Map<string, ClauseCheck>;
}

type WorkerFixtures = {
  config: TargetConfig;
  redact: Redactor;
  target: Target;
  signupTokens: SignupTokenRun;
  projectLists: ProjectsRun;
};

type TestFixtures = { judge: (check: ClauseCheck) => Promise<void> };

/** The recording global setup left for this worker's target (project). */
function recordingFile(projectName: string): string {
  const files = JSON.parse(process.env[RECORDING_VARIABLE] ?? '{}') as Record<string, string>;
  const file = files[projectName];
  if (!file) throw new Error('no recording of the target: run the suite through its Playwright config, whose global setup sends the requests');
  return file;
}

const fetched = (exchange: Exchange): Fetched => ({ exchange, readable: readBody(exchange) });
const readableOnly = (runs: Fetched[]) => runs.flatMap((f) => (f.readable.ok ? [{ exchange: f.exchange, body: f.readable.body }] : []));

/**
 * Schema clauses of every body that could be read. A required response that could not be read leaves
 * each of them errored; an optional one (an archived list) only adds what it holds.
 */
function schemaOf(operation: 'signup-token' | 'projects', required: Fetched[], optional: Fetched[] = []): Map<string, ClauseCheck> {
  const checks = schemaChecks(operation, readableOnly([...required, ...optional]));
  for (const check of checks.values()) requireReadable(check, required);
  return checks;
}

export const expect = baseExpect.extend({
  toConform(check: ClauseCheck, redact: Redactor) {
    const pass = check.violationCount === 0;
    return {
      pass,
      name: 'toConform',
      message: () => (pass ? `clause ${check.clause} was expected to be violated, and it was not` : describeViolations(check, redact)),
    };
  },
});

/** The deviation that excuses a failure of this clause today, if the target has one. */
function activeDeviation(config: TargetConfig, clause: string): KnownDeviation | undefined {
  const today = new Date().toISOString().slice(0, 10);
  return config.deviations.find((d) => d.clause === clause && (d.expires === undefined || d.expires > today));
}

function clauseOfTest(testInfo: TestInfo): string | undefined {
  return testInfo.annotations.find((a) => a.type === 'clause')?.description;
}

async function judgeClause(check: ClauseCheck, target: Target, redact: Redactor, testInfo: TestInfo): Promise<void> {
  if (clauseOfTest(testInfo) !== check.clause) throw new Error(`this test is for clause ${clauseOfTest(testInfo)} but judged ${check.clause}`);
  // Redacted once more as a whole: a target may echo a token anywhere, even in a header the evidence quotes.
  await testInfo.attach('conformance-evidence', { body: redact(JSON.stringify(clauseEvidence(check, redact))), contentType: 'application/json' });
  await testInfo.attach('conformance-run', { body: redact(JSON.stringify(target.context)), contentType: 'application/json' });
  const outcome = check.outcome;
  if (outcome === 'not-exercised') {
    testInfo.annotations.push({ type: 'outcome', description: 'not-exercised' });
    testInfo.skip(true, `not exercised: needs ${clauseById(check.clause).needs ?? 'input the target did not provide'}`);
  }
  testInfo.annotations.push({ type: 'outcome', description: outcome });
  // A failure the target's deviations file accepts is an expected failure: JUnit and Playwright's own
  // summary then agree with the gate, and the worker is not restarted for it.
  const deviation = outcome === 'failed' ? activeDeviation(target.config, check.clause) : undefined;
  if (deviation) testInfo.fail(true, `known deviation: ${deviation.reason}`);
  await base.step(`judge clause ${check.clause}`, async () => {
    if (outcome === 'errored') throw new Error(describeUnevaluable(check, redact));
    expect(check).toConform(redact);
  }, { box: true });
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  config: [async ({}, use, workerInfo) => use(targetOfProject(loadTargets(), workerInfo.project.name)), { scope: 'worker' }],
  redact: [async ({ config }, use) => use(createRedactor(config)), { scope: 'worker' }],
  target: [async ({ config }, use, workerInfo) => use(new Target(config, loadRecording(recordingFile(workerInfo.project.name)))), { scope: 'worker' }],
  signupTokens: [async ({ config, target }, use) => {
    const all = config.signupTokens.map((secret) => ({ secret, ...fetched(target.token(secret)) }));
    await use({ fetched: all, schema: schemaOf('signup-token', all) });
  }, { scope: 'worker' }],
  projectLists: [async ({ target }, use) => {
    const [plain, archivedTrue, archivedFalse] = [target.projects(), target.projects('?archived=true'), target.projects('?archived=false')].map(fetched);
    await use({ plain, archivedTrue, archivedFalse, schema: schemaOf('projects', [plain], [archivedTrue, archivedFalse]) });
  }, { scope: 'worker' }],
  judge: async ({ target, redact }, use, testInfo) => use((check) => judgeClause(check, target, redact, testInfo)),
});

/**
 * The title and details of the test of one catalogue clause, spread into `test(...)`: the title is the
 * clause's sentence, the details carry its id, section and level.
 */
export function clause(id: string): [string, TestDetails] {
  const c = clauseById(id);
  // The id in the title puts it in every report line and JUnit name, and lets `--grep <id>` select one clause.
  return [`${c.title} [${id}]`, { tag: [`@${c.level}`], annotation: [{ type: 'clause', description: id }, { type: 'section', description: c.section }] }];
}

/** Marks every readable-input failure of the given fetches on the check. */
export function requireReadable(check: ClauseCheck, runs: Fetched[]): { exchange: Exchange; body: unknown }[] {
  for (const f of runs) if (!f.readable.ok) check.cannotEvaluate(f.exchange, f.readable.reason);
  return readableOnly(runs);
}
