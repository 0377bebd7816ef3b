import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { check } from '../../harness/files/checked.ts';
import { CHANGE_KINDS, type ChangeKind } from '../../reporters/change.ts';
import { classify, diffRuns, type RunDiff } from '../../reporters/diff.ts';
import { observationChanges } from '../../reporters/diff-evidence.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import type { ClauseResult, ClauseStatus, ConformanceReport } from '../../reporters/conformance-result.ts';
import { tamperedCopy, unpack } from '../support/bundles.ts';
import { commandProcess } from '../support/command-line.ts';
import { referenceTargetEnv, runCommand, runSuite, type SuiteRun, diffLines } from '../support/run-suite.ts';

// diff lines up two runs by clause id and target, and says what changed and why; it exits 1 only when a
// clause got worse. The kinds are data; a few runs of the reference target, faithful and broken, prove the wiring.

const clause = (status: ClauseStatus, violation?: string): ClauseResult =>
  ({
    id: 'projects.response.json',
    section: '5',
    level: 'MUST',
    title: 'a title',
    status,
    ...(violation && {
      evidence: { violations: [{ pointer: '/projects', received: violation, required: 'an array', request: { method: 'GET', path: '/api/admin/projects' } }] },
    }),
  }) as ClauseResult;

const KINDS: [ClauseResult | undefined, ClauseResult | undefined, ChangeKind | undefined][] = [
  [clause('passed'), clause('passed'), undefined],
  [clause('passed'), clause('failed', 'null'), 'regressed'],
  [clause('passed'), clause('known-deviation', 'null'), 'regressed'],
  [clause('known-deviation', 'null'), clause('failed', 'null'), 'deviation-ended'],
  [clause('failed', 'null'), clause('known-deviation', 'null'), 'deviation-added'],
  [clause('failed', 'null'), clause('passed'), 'fixed'],
  [clause('known-deviation', 'null'), clause('passed'), 'fixed'],
  [clause('not-exercised'), clause('passed'), 'newly-exercised'],
  [clause('errored'), clause('failed', 'null'), 'newly-exercised'],
  [clause('passed'), clause('not-exercised'), 'no-longer-exercised'],
  [clause('failed', 'null'), clause('errored'), 'no-longer-exercised'],
  [clause('failed', 'null'), clause('failed', 'null'), undefined],
  [clause('failed', 'null'), clause('failed', '"text"'), 'evidence-changed'],
  [clause('errored'), clause('not-judged'), 'status-changed'],
  [undefined, clause('passed'), 'clause-added'],
  [clause('passed'), undefined, 'clause-removed'],
  [clause('known-deviation', 'null'), clause('known-deviation', 'null'), undefined],
  [clause('known-deviation', 'null'), clause('known-deviation', '"text"'), 'evidence-changed'],
  [clause('observed'), clause('observed'), undefined],
];

for (const [before, after, kind] of KINDS)
  test(`a clause ${before?.status ?? 'absent'} then ${after?.status ?? 'absent'}${after?.evidence ? ` (${after.evidence.violations[0].received})` : ''} is ${kind ?? 'unchanged'}`, () => {
    expect(classify(before, after)).toBe(kind);
  });

const report = (name: string, status: ClauseStatus) =>
  ({
    target: { name },
    suite: { version: '1.0.0', contractsHash: 'c'.repeat(64) },
    document: { sha256: 'd'.repeat(64) },
    verdict: status === 'failed' ? 'fail' : 'pass',
    clauses: [clause(status, status === 'failed' ? 'null' : undefined)],
  }) as ConformanceReport;

/** A violation of the expiry clause as a run words it: the token's expiry and the request's moment in its text. */
const expiry = (at: string, status = 200) => ({
  pointer: '/enabled',
  received: 'true',
  required: `false, since expiresAt ${at}T10:00:00.000Z lies before the request (${at}T10:00:09.513Z)`,
  request: { method: 'GET', path: '/api/admin/invite-link/tokens/$SIGNUP_TOKEN_2', status },
});
const forbidden = {
  pointer: '/name',
  received: '"PermissionError"',
  required: '"NoAccessError"',
  request: { method: 'GET', path: '/api/admin/projects', status: 403 },
};
const failing = (status: ClauseStatus, ...violations: object[]) =>
  ({ id: 'signup-token.state.expired-not-enabled', section: '3', level: 'MUST', title: 'a title', status, evidence: { violations } }) as ClauseResult;
const observing = (observations: object) =>
  ({
    id: 'projects.observe.unknown-fields',
    section: '2',
    level: 'INFO',
    title: 'a title',
    status: 'observed',
    evidence: { clause: 'projects.observe.unknown-fields', outcome: 'passed', instances: 1, violations: [], violationsCut: 0, unevaluable: [], observations },
  }) as ClauseResult;

// The same server judged on two days: what its violations quote of the day is no change. Each broken case names
// what makes the evidence another.
const EVIDENCE: [string, ClauseResult, ClauseResult, ChangeKind | undefined][] = [
  ['the same failure on another day', failing('failed', expiry('2026-11-25')), failing('failed', expiry('2027-01-03')), undefined],
  ['the same known deviation on another day', failing('known-deviation', expiry('2026-11-25')), failing('known-deviation', expiry('2027-01-03')), undefined],
  [
    'the same violations found in another order',
    failing('failed', expiry('2026-11-25'), forbidden),
    failing('failed', forbidden, expiry('2026-11-25')),
    undefined,
  ],
  ['a violation answered with another status', failing('failed', expiry('2026-11-25')), failing('failed', expiry('2026-11-25', 201)), 'evidence-changed'],
  [
    'a known deviation with one more violation',
    failing('known-deviation', forbidden),
    failing('known-deviation', forbidden, expiry('2026-11-25')),
    'evidence-changed',
  ],
  [
    'the same observation',
    observing({ fields: [{ field: '/projects/*/technicalDebt', count: 1 }] }),
    observing({ fields: [{ field: '/projects/*/technicalDebt', count: 1 }] }),
    undefined,
  ],
  [
    'an observation with one more field',
    observing({ fields: [] }),
    observing({ fields: [{ field: '/projects/*/onboardingStatus', count: 1 }] }),
    'observation-changed',
  ],
];

for (const [name, before, after, kind] of EVIDENCE)
  test(`${name} is ${kind ?? 'unchanged'}`, () => {
    expect(classify(before, after)).toBe(kind);
  });

const OBSERVATIONS: [string, unknown, unknown, string[]][] = [
  ['the same', { version: 1 }, { version: 1 }, []],
  ['a value', { description: { version: '7.6.5' } }, { description: { version: '8.2.0' } }, ['/description/version: "7.6.5" then "8.2.0"']],
  ['a field gained', { counts: {} }, { counts: { archived: 1 } }, ['/counts/archived: nothing then 1']],
  ['a list gained an item and lost one', { fields: ['a', 'b'] }, { fields: ['b', 'c'] }, ['/fields: added "c"', '/fields: removed "a"']],
  ['a list with an item twice', ['a'], ['a', 'a'], ['/: added "a"']],
  ['a list in another order', ['a', 'b'], ['b', 'a'], ['/: the same items in another order']],
  ['a value of another type', { version: 1 }, { version: '1' }, ['/version: 1 then "1"']],
  ['a key to be escaped', { 'a/b~': 1 }, { 'a/b~': 2 }, ['/a~1b~0: 1 then 2']],
];

for (const [name, before, after, lines] of OBSERVATIONS)
  test(`an observation's changes are named: ${name}`, () => {
    expect(observationChanges(before, after)).toEqual(lines);
  });

test('why names the violation that differs, not the first, which both runs share; and the observation that differs', () => {
  const diff = diffRuns(
    { source: 'old', reports: [{ ...report('unleash', 'passed'), clauses: [failing('known-deviation', forbidden), observing({ fields: [] })] }] },
    {
      source: 'new',
      reports: [{ ...report('unleash', 'passed'), clauses: [failing('known-deviation', forbidden, expiry('2026-11-25')), observing({ fields: ['x'] })] }],
    },
  );
  expect(diff.changes.map((c) => [c.kind, c.why])).toEqual([
    [
      'evidence-changed',
      'GET /api/admin/invite-link/tokens/$SIGNUP_TOKEN_2 → 200: at /enabled: received true; the document requires false, since expiresAt 2026-11-25T10:00:00.000Z lies before the request (2026-11-25T10:00:09.513Z)',
    ],
    ['observation-changed', '/fields: added "x"'],
  ]);
  const gone = diffRuns(
    { source: 'old', reports: [{ ...report('unleash', 'passed'), clauses: [failing('failed', forbidden, expiry('2026-11-25'))] }] },
    { source: 'new', reports: [{ ...report('unleash', 'passed'), clauses: [failing('failed', forbidden)] }] },
  );
  expect(gone.changes.map((c) => c.why)).toEqual([
    expect.stringMatching(/^no longer: GET \/api\/admin\/invite-link\/tokens\/\$SIGNUP_TOKEN_2 → 200: at \/enabled: received true;/),
  ]);
});

test('targets are matched by name; a run of one target matches the other run of one whatever its name', () => {
  const several = diffRuns(
    { source: 'old', reports: [report('eu', 'passed'), report('us', 'passed')] },
    { source: 'new', reports: [report('us', 'failed'), report('asia', 'passed')] },
  );
  expect(several.changes.map((c) => [c.target, c.kind])).toEqual([['us', 'regressed']]);
  expect(several.unpaired).toEqual([
    { target: 'eu', in: 'old' },
    { target: 'asia', in: 'new' },
  ]);
  const single = diffRuns({ source: 'old', reports: [report('staging', 'failed')] }, { source: 'new', reports: [report('production', 'passed')] });
  expect(single.changes.map((c) => [c.target, c.kind])).toEqual([['production', 'fixed']]);
  const apart = diffRuns(
    { source: 'old', reports: [report('eu', 'passed'), report('us', 'passed')] },
    { source: 'new', reports: [report('asia', 'passed'), report('au', 'passed')] },
  );
  expect([apart.changes.length, apart.unchanged, apart.unpaired.length]).toEqual([0, 0, 4]);
});

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
let server: Awaited<ReturnType<typeof startReferenceServer>>;
let faithful: SuiteRun;
let broken: SuiteRun;
// The runs are made once, for the tests that compare them: these tests share one worker.
test.describe('two runs of the reference target, faithful and broken', () => {
  test.describe.configure({ mode: 'default' });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startReferenceServer(0, [fault]);
    [faithful, broken] = await Promise.all([runSuite(referenceTargetEnv(server.url)), runSuite(referenceTargetEnv(`${server.url}/variants/${fault.name}`))]);
  });
  test.afterAll(async () => {
    await new Promise<void>((resolve) => server.server.close(() => resolve()));
    for (const run of [faithful, broken]) if (run) rmSync(run.reportDir, { recursive: true, force: true });
  });

  test('a clause that breaks between two runs is named as regressed, with its evidence, exit code 1', async () => {
    const lines = await diffLines(faithful.reportDir, broken.reportDir, 1);
    expect(lines[0]).toBe('Conformance diff: 1 regressed; 1 clause changed, 45 unchanged');
    expect(lines).toContain('  verdict: pass → fail');
    expect(lines).toContain('regressed (1):');
    expect(
      lines.find((l) => l.startsWith('  signup-token.state.expired-not-enabled (MUST, passed → failed): GET /api/admin/invite-link/tokens/')),
    ).toBeDefined();
  });

  test('the same runs the other way round: fixed, nothing regressed, exit code 0; as JSON and Markdown', async () => {
    const json = await runCommand(['diff', path.join(broken.reportDir, 'conformance.json'), faithful.reportDir, '--format', 'json']);
    expect(json.exitCode, json.stdout + json.stderr).toBe(0);
    const diff = JSON.parse(json.stdout) as RunDiff;
    expect(check(new URL('../../commands/diff.schema.json', `file://${__filename}`), diff)).toEqual({ ok: true, value: diff });
    expect(diff.changes.map((c) => [c.id, c.kind, c.from, c.to])).toEqual([['signup-token.state.expired-not-enabled', 'fixed', 'failed', 'passed']]);
    expect([diff.regressions, diff.judgeChanged, diff.unpaired]).toEqual([0, [], []]);
    const markdown = await runCommand(['diff', broken.reportDir, faithful.reportDir, '--format=markdown']);
    expect(markdown.exitCode).toBe(0);
    expect(markdown.stdout).toContain('| fixed | `signup-token.state.expired-not-enabled` | failed | passed |');
  });

  test('evidence bundles are compared once they verify; a changed bundle is refused in one line, exit code 2', async () => {
    const [before, after] = await Promise.all([
      unpack(path.join(faithful.reportDir, 'evidence.tar.gz')),
      unpack(path.join(broken.reportDir, 'evidence.tar.gz')),
    ]);
    const copy = mkdtempSync(path.join(os.tmpdir(), 'conformance-diff-archive-'));
    try {
      cpSync(path.join(faithful.reportDir, 'evidence.tar.gz'), path.join(copy, 'evidence.tar.gz'));
      const bundled = await runCommand(['diff', path.join(copy, 'evidence.tar.gz'), after]);
      expect(bundled.exitCode, bundled.stdout + bundled.stderr).toBe(1);
      expect(bundled.stdout).toContain('regressed (1):');
      // A report edited to say the clause passed, in a bundle: its digest no longer holds.
      const tampered = tamperedCopy(after, 'reports/conformance.json', (text) => text.replace('"status": "failed"', '"status": "passed"'));
      const refused = await runCommand(['diff', before, tampered]);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^admin-api-conformance diff: \S+ does not verify \(.*reports\/conformance\.json.*\); admin-api-conformance verify names every difference$/,
        ),
      ]);
    } finally {
      for (const dir of [before, after, copy]) rmSync(dir, { recursive: true, force: true });
    }
  });

  test('what cannot be compared is one line, exit code 2: a usage mistake, a missing run, an unknown format', async () => {
    const usage = await runCommand(['diff', faithful.reportDir]);
    expect([usage.exitCode, usage.stderr]).toEqual([
      2,
      'admin-api-conformance diff: usage: admin-api-conformance diff <old run> <new run> [--format text|markdown|json] [--old-document <its text>] [--new-document <its text>]\n',
    ]);
    const missing = await runCommand(['diff', faithful.reportDir, '/nonexistent/run']);
    expect([missing.exitCode, missing.stderr]).toEqual([2, 'admin-api-conformance diff: there is no file or folder /nonexistent/run\n']);
    const format = await runCommand(['diff', faithful.reportDir, broken.reportDir, '--format', 'xml']);
    expect(format.exitCode).toBe(2);
    // A matrix that lists no target holds no run to compare.
    const empty = path.join(mkdtempSync(path.join(os.tmpdir(), 'conformance-diff-empty-')), 'conformance.json');
    writeFileSync(empty, '{"kind": "matrix", "targets": []}\n');
    const nothing = await runCommand(['diff', faithful.reportDir, empty]);
    expect([nothing.exitCode, nothing.stderr]).toEqual([2, `admin-api-conformance diff: ${empty} holds no target's report\n`]);
    rmSync(path.dirname(empty), { recursive: true, force: true });
  });

  /** A matrix folder of `n` copies of one run's report under other names, as a fleet run leaves it. */
  function fleetOf(run: SuiteRun, n: number, into: string): string {
    const report = JSON.parse(readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8')) as ConformanceReport;
    const targets = Array.from({ length: n }, (_, i) => {
      const name = `tenant-${i + 1}`;
      mkdirSync(path.join(into, 'targets', name), { recursive: true });
      writeFileSync(path.join(into, 'targets', name, 'conformance.json'), JSON.stringify({ ...report, target: { ...report.target, name } }));
      return { name, baseUrl: report.target.baseUrl, verdict: report.verdict, summary: report.summary, report: `targets/${name}/index.html` };
    });
    writeFileSync(path.join(into, 'conformance.json'), JSON.stringify({ kind: 'matrix', targets }));
    return into;
  }

  // A run of the command, in a child process whose output is a pipe: the command exits once its output is written.
  test('a diff longer than a pipe holds at once reaches the pipe whole', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-diff-fleet-'));
    try {
      const old = fleetOf(faithful, 300, path.join(dir, 'old'));
      const now = fleetOf(broken, 300, path.join(dir, 'new'));
      const run = await commandProcess(['diff', old, now, '--format', 'json']);
      expect(run.exitCode, run.stderr).toBe(1);
      expect(run.stdout.length).toBeGreaterThan(64 * 1024);
      expect((JSON.parse(run.stdout) as RunDiff).regressions).toBe(300);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The enum of a schema that lists the kinds of change: the one that holds "regressed". */
function kindsEnum(file: string): unknown[] | undefined {
  const walk = (node: unknown): unknown[] | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    if (Array.isArray(node)) return node.includes('regressed') ? node : node.map(walk).find(Boolean);
    return Object.values(node).map(walk).find(Boolean);
  };
  return walk(JSON.parse(readFileSync(path.join(__dirname, '../..', file), 'utf8')));
}

test('the kinds of change are the same in the code, the diff schema and the report schema (a run against its baseline)', () => {
  for (const file of ['commands/diff.schema.json', 'reporters/conformance-report.schema.json']) expect(kindsEnum(file), file).toEqual([...CHANGE_KINDS]);
});
