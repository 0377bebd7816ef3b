import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { tamperedCopy, unpack } from '../support/bundles.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';
import { runClauses } from '../support/run-clauses.ts';
import { referenceTargetEnv, runCommand, runSuite, type SuiteRun } from '../support/run-suite.ts';

// A run given a baseline (CONFORMANCE_BASELINE) reports what changed since, and under the ratchet
// (CONFORMANCE_GATE=regressions) exits by what regressed alone. The gate's decisions are data
// (self-tests/reporters/gate.test.ts); these runs of the reference target, faithful and broken, prove that the
// configuration, the reports and the exit code carry them, and that the reports keep the target's verdict.

// The baseline runs are made once, for every test: the tests share one worker.
test.describe.configure({ mode: 'default' });

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
const [broken] = fault.breaks;
let server: Awaited<ReturnType<typeof startReferenceServer>>;
let faithfulRun: SuiteRun;
let brokenRun: SuiteRun;
const runs: SuiteRun[] = [];
const brokenEnv = (overrides: Record<string, string> = {}) => referenceTargetEnv(`${server.url}/variants/${fault.name}`, overrides);
const summaryOf = (run: SuiteRun) => readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8');

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startReferenceServer(0, [fault]);
  [faithfulRun, brokenRun] = await Promise.all([runSuite(referenceTargetEnv(server.url)), runSuite(brokenEnv())]);
  runs.push(faithfulRun, brokenRun);
  expect([faithfulRun.exitCode, brokenRun.exitCode]).toEqual([0, 1]);
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => server.server.close(() => resolve()));
  for (const run of runs) rmSync(run.reportDir, { recursive: true, force: true });
});

test('under the ratchet, a target that fails as its baseline did exits 0, and every report still says FAIL', async () => {
  const run = await runSuite(brokenEnv({ CONFORMANCE_BASELINE: brokenRun.reportDir, CONFORMANCE_GATE: 'regressions' }));
  runs.push(run);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  expect(reportSchemaErrors(run.report)).toEqual([]);
  expect(run.report?.verdict).toBe('fail');
  expect(run.report?.baseline).toMatchObject({
    source: brokenRun.reportDir,
    gate: 'regressions',
    compared: { verdict: 'fail' },
    judgeChanged: [],
    regressions: 0,
  });
  const gate = `gate (ratchet): exit code 0: nothing regressed against ${brokenRun.reportDir}; the target still FAILS 1 MUST clause, as in the baseline (${broken})`;
  const summary = summaryOf(run).split('\n');
  expect(summary[0]).toBe('## Conformance: FAIL, the target violates the document');
  expect(summary[2]).toBe(`> **${gate.replaceAll('_', '\\_')}**`);
  expect(summary).toContain('### Since the baseline');
  const badge = (of: SuiteRun) => readFileSync(path.join(of.reportDir, 'badge.svg'), 'utf8');
  expect(badge(run)).toBe(badge(brokenRun));
  // What the reports say of the baseline is in the bundle's report, so verify renders the same pages from it.
  const verified = await runCommand(['verify', path.join(run.reportDir, 'evidence.tar.gz')]);
  expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
});

test('a clause that passed in the baseline and fails now fails the ratchet, exit code 1, named as regressed', async () => {
  const run = await runSuite(brokenEnv({ CONFORMANCE_BASELINE: path.join(faithfulRun.reportDir, 'evidence.tar.gz'), CONFORMANCE_GATE: 'regressions' }));
  runs.push(run);
  expect(run.exitCode, run.stdout + run.stderr).toBe(1);
  expect(run.report?.verdict).toBe('fail');
  expect(run.report?.baseline).toMatchObject({ compared: { verdict: 'pass' }, regressions: 1 });
  expect(run.report?.baseline?.changes.map((c) => [c.id, c.kind, c.from, c.to])).toEqual([[broken, 'regressed', 'passed', 'failed']]);
  expect(summaryOf(run)).toContain(`gate (ratchet): exit code 1: 1 regressed against`);
});

test("under the must gate the exit code is the verdict's; what the report quotes of the baseline has this run's secrets hidden", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-baseline-file-'));
  const file = path.join(dir, 'conformance.json');
  const before = JSON.parse(readFileSync(path.join(brokenRun.reportDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  // A baseline is a file of the user's: one that spells this run's token (written by hand, or by another tool) is not copied as it is.
  const reason = `failed, as the token ${REFERENCE_FIXTURES.adminToken} shows`;
  // Its words and its evidence, which a fixed clause's line quotes (the violation it no longer has).
  const spelt = (c: object) => JSON.parse(JSON.stringify(c).replaceAll('$SIGNUP_TOKEN_3', REFERENCE_FIXTURES.adminToken));
  writeFileSync(file, JSON.stringify({ ...before, clauses: before.clauses.map((c) => (c.id === broken ? { ...spelt(c), reason } : c)) }));
  try {
    const run = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_BASELINE: file }));
    runs.push(run);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.report?.baseline).toMatchObject({ gate: 'must', regressions: 0 });
    expect(run.report?.baseline?.changes).toEqual([
      expect.objectContaining({
        id: broken,
        kind: 'fixed',
        why: expect.stringMatching(/^no longer: GET \/api\/admin\/invite-link\/tokens\/\$TOKEN → 200: at \/enabled/),
      }),
    ]);
    for (const name of ['conformance.json', 'summary.md', 'index.html'])
      expect(readFileSync(path.join(run.reportDir, name), 'utf8')).not.toContain(REFERENCE_FIXTURES.adminToken);
    expect(run.stdout).not.toContain(REFERENCE_FIXTURES.adminToken);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a partial run has no verdict under the ratchet, exit code 3, though nothing it judged regressed', async () => {
  const run = await runClauses(brokenEnv({ CONFORMANCE_BASELINE: brokenRun.reportDir, CONFORMANCE_GATE: 'regressions' }), [broken]);
  runs.push(run);
  expect(run.exitCode, run.stdout + run.stderr).toBe(3);
  expect(run.report?.verdict).toBe('fail');
  expect(run.report?.baseline?.regressions).toBe(0);
});

test('the ratchet without a baseline, and a baseline whose bundle was changed, are configuration errors: one line, exit code 2', async () => {
  const none = await runSuite(brokenEnv({ CONFORMANCE_GATE: 'regressions' }));
  runs.push(none);
  expect(none.exitCode).toBe(2);
  expect(none.stderr).toBe(
    'conformance: configuration error: CONFORMANCE_GATE=regressions fails the run only on a regression against a baseline, and CONFORMANCE_BASELINE is not set: give the report folder, conformance.json or evidence bundle of the run to compare with\n',
  );
  const unpacked = await unpack(path.join(brokenRun.reportDir, 'evidence.tar.gz'));
  // A baseline edited to say the clause passed would excuse nothing; edited to say it failed, it would excuse a regression.
  const tampered = tamperedCopy(unpacked, 'reports/conformance.json', (text) => text.replace('"status": "passed"', '"status": "failed"'));
  try {
    const changed = await runSuite(brokenEnv({ CONFORMANCE_BASELINE: tampered, CONFORMANCE_GATE: 'regressions' }));
    runs.push(changed);
    expect(changed.exitCode).toBe(2);
    expect(changed.stderr.split('\n')).toEqual([
      expect.stringMatching(
        /^conformance: configuration error: CONFORMANCE_BASELINE: \S+ does not verify \(.*reports\/conformance\.json.*\); admin-api-conformance verify names every difference$/,
      ),
      '',
    ]);
    expect(changed.report).toMatchObject({ verdict: 'error', completed: false });
  } finally {
    for (const dir of [unpacked, tampered]) rmSync(dir, { recursive: true, force: true });
  }
});

test("several targets are compared with a matrix's by name, whatever their order; the ratchet passes what fails as before", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-baseline-targets-'));
  const targetFile = (name: string, baseUrl: string) => {
    const file = path.join(dir, `${name}.yaml`);
    writeFileSync(
      file,
      `name: ${name}\nbaseUrl: ${baseUrl}\nadminToken: ${REFERENCE_FIXTURES.adminToken}\nsignupTokens: [${REFERENCE_FIXTURES.signupTokens.join(', ')}]\n`,
    );
    return file;
  };
  const [faithful, expiring] = [targetFile('faithful', server.url), targetFile('expiring', `${server.url}/variants/${fault.name}`)];
  try {
    // Without a forbidden token the forbidden profile is not exercised: the claim leaves it out.
    const settings = { CONFORMANCE_CLAIM: 'core,projects-data,signup-tokens,user-dates,expired-token' };
    const before = await runSuite({ ...settings, CONFORMANCE_TARGETS: `${expiring},${faithful}` });
    runs.push(before);
    expect(before.exitCode, before.stdout + before.stderr).toBe(1);
    const now = await runSuite({
      ...settings,
      CONFORMANCE_TARGETS: `${faithful},${expiring}`,
      CONFORMANCE_BASELINE: before.reportDir,
      CONFORMANCE_GATE: 'regressions',
    });
    runs.push(now);
    expect(now.exitCode, now.stdout + now.stderr).toBe(0);
    expect((now.report as unknown as MatrixReport).verdict).toBe('fail');
    // The matrix's own reports say which gate the exit code followed, beside the verdict the targets earned.
    expect((now.report as unknown as MatrixReport).gate?.exitCode).toBe(0);
    expect(summaryOf(now)).toContain("> **gate (ratchet): exit code 0, by what regressed against each target's baseline");
    expect(readFileSync(path.join(now.reportDir, 'index.html'), 'utf8')).toContain('data-testid="gate"');
    const own = (name: string) => JSON.parse(readFileSync(path.join(now.reportDir, 'targets', name, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(['faithful', 'expiring'].map((name) => [own(name).verdict, own(name).baseline?.compared, own(name).baseline?.regressions])).toEqual([
      ['pass', { target: 'faithful', baseUrl: server.url, verdict: 'pass' }, 0],
      ['fail', { target: 'expiring', baseUrl: `${server.url}/variants/${fault.name}`, verdict: 'fail' }, 0],
    ]);

    // The same run in two shards, merged: the merge exits by the same gate, and lacking a shard has no verdict.
    const shards = await Promise.all(
      [1, 2].map((i) =>
        runSuite({
          ...settings,
          CONFORMANCE_TARGETS: `${faithful},${expiring}`,
          CONFORMANCE_BASELINE: before.reportDir,
          CONFORMANCE_GATE: 'regressions',
          CONFORMANCE_SHARD: `${i}/2`,
          CONFORMANCE_RUN_ID: 'ratchet 1',
        }),
      ),
    );
    runs.push(...shards);
    const merged = await runCommand(['merge', ...shards.map((r) => r.reportDir)]);
    expect(merged.exitCode, merged.stdout + merged.stderr).toBe(0);
    expect(merged.stdout).toContain('Conformance matrix, merged: FAIL, 1 of 2 targets pass');
    expect(merged.stdout).toContain("gate (ratchet): exit code 0, by what regressed against each target's baseline");
    const half = await runCommand(['merge', shards[1].reportDir]);
    expect(half.exitCode, half.stdout + half.stderr).toBe(3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
