import { expect, test } from '@playwright/test';
import { loadChecks } from '../../checks/index.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadProfiles } from '../../harness/contracts/profiles.ts';
import { judge } from '../../harness/judging/judge.ts';
import { runsOf, type ClauseRun } from '../../harness/judging/verdicts.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import type { Variant } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { buildConformanceReport, type ClauseStatus, type ReportView, type RunMeta } from '../../reporters/conformance-result.ts';
import { renderCtrf, type CtrfReport, type CtrfTest } from '../../reporters/ctrf.ts';
import { ctrfSchemaErrors } from '../support/ctrf-schema.ts';
import { ONE_CLAUSE_PER_STATUS } from '../support/every-status.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';
import { CLAUSE_STATUSES } from '../support/report-schema.ts';
import { runMeta } from '../support/run-meta.ts';

// ctrf.json judged as data: runs over the reference variants, faithful and broken, rendered as a run renders them,
// each valid against CTRF's published schema and saying of every clause what the report says. The checks are
// proven to fail on renderings broken one way each (a status flattened to passed, a count that lies).

/**
 * The statuses of the suite's each CTRF status is designed to carry (reporters/statuses.ts says why), stated here
 * apart from the renderers' table: passes and failures exactly as the suite counts them, what could not be judged
 * other (JUnit's <error>), everything else that is no pass skipped (as in JUnit), and pending none.
 */
const CARRIES: Record<CtrfTest['status'], ClauseStatus[]> = {
  passed: ['passed'],
  failed: ['failed'],
  skipped: ['known-deviation', 'not-exercised', 'not-judged', 'observed'],
  other: ['errored'],
  pending: [],
};
const designed = (status: ClauseStatus) => Object.entries(CARRIES).find(([, carried]) => carried.includes(status))?.[0];

test('every status of the suite, as conformance.json lists them, is carried by exactly one CTRF status', () => {
  expect(Object.values(CARRIES).flat().sort()).toEqual([...CLAUSE_STATUSES].sort());
});

const EXPIRED_ENABLED = 'signup-token.state.expired-not-enabled';
const fault = (name: string): Variant => FAULTS.find((f) => f.name === name)!;

/** The report a run against the variant would give, judged in this process. */
function reportOf(variant: Variant | undefined, meta: Partial<RunMeta> = {}, input = REFERENCE_INPUT, keep = (_: ClauseRun) => true) {
  const catalogue = loadCatalogue();
  const runs = runsOf(catalogue, judge(recordInProcess(variant, input), input, loadChecks()), createSecrets(input)).filter(keep);
  return buildConformanceReport(
    catalogue,
    runs,
    runMeta({ profiles: loadProfiles(), target: { name: 'reference', baseUrl: 'http://reference.invalid', embedded: false }, ...meta }),
  );
}

/** Everything in which a ctrf.json does not say what its report says, or is not CTRF; empty when it holds. */
function ctrfProblems(report: ReportView, ctrf: CtrfReport): string[] {
  const problems = ctrfSchemaErrors(ctrf).map((e) => `schema: ${e}`);
  const { tests, summary, environment, extra } = ctrf.results;
  if (tests.map((t) => t.testId).join() !== report.clauses.map((c) => c.id).join()) problems.push('testId: not the clause ids, in the report order');
  report.clauses.forEach((c, i) => {
    const t: Partial<CtrfTest> = tests[i] ?? {};
    if (t.rawStatus !== c.status) problems.push(`${c.id}: rawStatus ${t.rawStatus}, the report says ${c.status}`);
    if (t.status !== designed(c.status)) problems.push(`${c.id}: status ${t.status} for ${c.status}, designed ${designed(c.status)}`);
    if (t.labels?.clause !== c.id || t.labels?.section !== c.section || t.labels?.target !== report.target?.name)
      problems.push(`${c.id}: labels ${JSON.stringify(t.labels)}`);
    const v = c.status === 'failed' || c.status === 'known-deviation' ? c.evidence?.violations[0] : undefined;
    if (v && !t.message?.includes(`received ${v.received}; the document requires ${v.required}`))
      problems.push(`${c.id}: the message does not say what was received and required`);
  });
  for (const status of ['passed', 'failed', 'skipped', 'pending', 'other'] as const)
    if (summary[status] !== tests.filter((t) => t.status === status).length) problems.push(`summary.${status}: ${summary[status]}, not its tests'`);
  if (summary.tests !== report.clauses.length) problems.push(`summary.tests: ${summary.tests} of ${report.clauses.length} clauses`);
  // CTRF's passes and failures are the suite's own: no reader of either counts a pass the report does not.
  if (summary.passed !== report.summary.passed || summary.failed !== report.summary.failed) problems.push('summary: passed or failed differ from the report');
  if (summary.start !== Date.parse(report.startedAt)) problems.push('summary.start: not when the run started');
  if (environment.healthy !== (report.verdict === 'pass')) problems.push(`environment.healthy: ${environment.healthy} for the verdict ${report.verdict}`);
  if (extra['admin-api-conformance.verdict'] !== report.verdict) problems.push('extra: the verdict is not the report');
  return problems;
}

const parsed = (report: ReportView): CtrfReport => JSON.parse(renderCtrf(report));

const RUNS: [string, () => ReportView][] = [
  ['the reference target', () => reportOf(undefined)],
  ['a target that keeps an expired token enabled', () => reportOf(fault('expired-token-enabled'))],
  ['a target whose project health exceeds 100', () => reportOf(fault('project-health-above-100'))],
  ['a target that cuts its projects list short (clauses errored)', () => reportOf(fault('projects-body-truncated'))],
  [
    'the same expired token accepted as a known deviation',
    () => reportOf(fault('expired-token-enabled'), { deviations: [{ clause: EXPIRED_ENABLED, reason: 'fixed in 9.0' }] }),
  ],
  ['a run given the admin token alone (clauses not exercised)', () => reportOf(undefined, {}, { ...REFERENCE_INPUT, signupTokens: [], forbidden: [] })],
  ['a run that left every signup-token clause out (--grep)', () => reportOf(undefined, {}, REFERENCE_INPUT, (r) => !r.clause.startsWith('signup-token.'))],
  ['a run stopped halfway', () => reportOf(undefined, { runStatus: 'interrupted' }, REFERENCE_INPUT, (r) => r.clause < 'projects.z')],
  [
    'a configuration the run refused (no target)',
    () => {
      const { target: _none, ...report } = reportOf(undefined, {}, REFERENCE_INPUT, () => false);
      return { ...report, verdict: 'error', errors: ['configuration error: CONFORMANCE_BASE_URL is not a URL'] };
    },
  ],
];

for (const [name, run] of RUNS)
  test(`ctrf.json of ${name} is valid CTRF and says of every clause what the report says`, () => {
    const report = run();
    expect(ctrfProblems(report, parsed(report))).toEqual([]);
  });

test('the runs above cover every status of the suite', () => {
  const seen = new Set(RUNS.flatMap(([, run]) => run().clauses.map((c) => c.status)));
  expect([...seen].sort()).toEqual([...CLAUSE_STATUSES].sort());
});

const violation = {
  pointer: '/health',
  received: '101',
  required: 'an integer from 0 to 100',
  request: { method: 'GET', path: '/api/admin/projects', credential: 'admin', status: 200, durationMs: 1, curl: 'curl' },
};
const evidence = (clause: string) => ({
  clause,
  outcome: 'failed' as const,
  instances: 1,
  violations: [violation],
  violationsCut: 0,
  unevaluable: [],
  observations: undefined,
});
const table = buildConformanceReport(
  ONE_CLAUSE_PER_STATUS,
  [
    { clause: 'a.passed', outcome: 'passed' },
    { clause: 'b.failed', outcome: 'failed', evidence: evidence('b.failed'), reason: 'violated: /health received 101' },
    { clause: 'c.errored', outcome: 'errored', reason: 'the run errored: no answer' },
    { clause: 'd.deviation', outcome: 'failed', evidence: evidence('d.deviation'), reason: 'violated, and known' },
    { clause: 'e.not-exercised', outcome: 'not-exercised', reason: 'needs CONFORMANCE_SIGNUP_TOKENS' },
    { clause: 'g.observed', outcome: 'passed' },
  ],
  runMeta({ deviations: [{ clause: 'd.deviation', reason: 'accepted until 9.0' }] }),
);

test('each status of the suite is the CTRF status designed for it, and stays in rawStatus', () => {
  const ctrf = parsed(table);
  expect(ctrf.results.tests.map((t) => [t.testId, t.status, t.rawStatus])).toEqual([
    ['a.passed', 'passed', 'passed'],
    ['b.failed', 'failed', 'failed'],
    ['c.errored', 'other', 'errored'],
    ['d.deviation', 'skipped', 'known-deviation'],
    ['e.not-exercised', 'skipped', 'not-exercised'],
    ['f.not-judged', 'skipped', 'not-judged'],
    ['g.observed', 'skipped', 'observed'],
  ]);
  expect(ctrf.results.summary).toMatchObject({ tests: 7, passed: 1, failed: 1, skipped: 4, pending: 0, other: 1 });
  expect(ctrfProblems(table, ctrf)).toEqual([]);
});

test('a test says why it has its status: the violation received and required, the deviation, what was not exercised', () => {
  const byId = new Map(parsed(table).results.tests.map((t) => [t.testId, t]));
  expect(byId.get('a.passed')?.message).toBeUndefined();
  expect(byId.get('b.failed')?.message).toBe('GET /api/admin/projects → 200: at /health: received 101; the document requires an integer from 0 to 100');
  expect(byId.get('c.errored')?.message).toBe('errored, no verdict: the run errored: no answer');
  expect(byId.get('d.deviation')?.message).toBe(
    `known deviation, not counted until it expires: accepted until 9.0; violated: ${byId.get('b.failed')?.message}`,
  );
  expect(byId.get('d.deviation')?.extra).toMatchObject({ 'admin-api-conformance.deviation': { reason: 'accepted until 9.0', state: 'applied' } });
  expect(byId.get('e.not-exercised')?.message).toBe('not exercised: needs CONFORMANCE_SIGNUP_TOKENS');
  expect(byId.get('f.not-judged')?.message).toMatch(/^not judged: /);
  expect(byId.get('b.failed')).toMatchObject({
    name: 'fails [b.failed]',
    suite: ['2.4 Projects list'],
    labels: { clause: 'b.failed', section: '2.4', level: 'MUST', target: 't' },
  });
});

test('the run is described as the report describes it: tool, times, document, target and verdict', () => {
  const { results, ...head } = parsed(table);
  expect(head).toEqual({ reportFormat: 'CTRF', specVersion: '1.0.0', generatedBy: 'admin-api-conformance 0' });
  expect(results.tool).toEqual({ name: 'admin-api-conformance', version: '0', extra: { 'admin-api-conformance.contractsHash': table.suite.contractsHash } });
  expect(results.summary).toMatchObject({ start: Date.parse('2026-01-01T00:00:00Z'), stop: Date.parse('2026-01-01T00:00:00Z') + 1, duration: 1 });
  expect(results.environment).toMatchObject({ testEnvironment: 't', healthy: false, extra: { 'admin-api-conformance.document': table.document } });
  expect(results.extra).toMatchObject({ 'admin-api-conformance.verdict': 'fail', 'admin-api-conformance.completed': true });
});

/** Renderings broken one way each, as a careless renderer would write them, its counts made to agree. */
const recount = (ctrf: CtrfReport): CtrfReport => {
  const of = (s: string) => ctrf.results.tests.filter((t) => t.status === s).length;
  const summary = { ...ctrf.results.summary, passed: of('passed'), failed: of('failed'), skipped: of('skipped'), pending: of('pending'), other: of('other') };
  return { ...ctrf, results: { ...ctrf.results, summary } };
};
const editTests = (ctrf: CtrfReport, edit: (t: CtrfTest) => CtrfTest) =>
  recount({ ...ctrf, results: { ...ctrf.results, tests: ctrf.results.tests.map(edit) } });
const flattened = (status: ClauseStatus) => (ctrf: CtrfReport) => editTests(ctrf, (t) => (t.rawStatus === status ? { ...t, status: 'passed' } : t));

const BROKEN: [string, (ctrf: CtrfReport) => unknown, RegExp][] = [
  ['an errored clause flattened to passed', flattened('errored'), /c\.errored: status passed for errored/],
  ['a clause not exercised flattened to passed', flattened('not-exercised'), /e\.not-exercised: status passed/],
  ['a clause not judged flattened to passed', flattened('not-judged'), /f\.not-judged: status passed/],
  ['an observation flattened to passed', flattened('observed'), /g\.observed: status passed/],
  ['a known deviation passed, as JUnit shows it', flattened('known-deviation'), /d\.deviation: status passed/],
  [
    'the suite status in CTRF status',
    (c) => editTests(c, (t) => ({ ...t, status: t.rawStatus as CtrfTest['status'] })),
    /schema: .*must be equal to one of the allowed values/,
  ],
  ['rawStatus left out', (c) => editTests(c, ({ rawStatus: _, ...t }) => t as CtrfTest), /rawStatus undefined/],
  ['a skipped clause counted as passed', (c) => ({ ...c, results: { ...c.results, summary: { ...c.results.summary, passed: 3 } } }), /summary\.passed/],
  ['a testId that is not the clause id', (c) => editTests(c, (t) => ({ ...t, testId: t.name })), /testId: not the clause ids/],
  ['the target left out of the labels', (c) => editTests(c, ({ labels: { target: _, ...labels }, ...t }) => ({ ...t, labels })), /labels/],
  [
    'a message without what was received',
    (c) => editTests(c, (t) => ({ ...t, message: t.message?.replace(/received.*/, '') })),
    /does not say what was received/,
  ],
  [
    'a failing run called healthy',
    (c) => ({ ...c, results: { ...c.results, environment: { ...c.results.environment, healthy: true } } }),
    /environment\.healthy/,
  ],
  ['a field CTRF does not have', (c) => editTests(c, (t) => ({ ...t, clause: t.testId })), /schema: .*must NOT have additional properties/],
];

for (const [name, broken, problem] of BROKEN)
  test(`a rendering broken thus is caught: ${name}`, () => {
    const problems = ctrfProblems(table, broken(parsed(table)) as CtrfReport);
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });
