import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXCHANGES } from '../../harness/evidence/bundle.ts';
import { readBundle } from '../../harness/evidence/bundle-reader.ts';
import { referenceEnvironment } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS, expiredTokenEnabledSometimes } from '../../reference-server/variants/index.ts';
import { verifyBundle } from '../../readers/verify.ts';
import { runConformance } from '../../run/engine.ts';
import type { ConformanceOptions } from '../../run/settings.ts';
import { withFile } from '../support/in-process-bundle.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';

// Flaky is a finding, never a pass (--confirm N): a failed clause's requests are sent N more times and the clause
// judged again on each answer. Failing every time is a failure; failing some of the time is flaky, no verdict (exit 3),
// the answers that differed side by side. A quarantine (a known deviation of kind flaky) excuses it until it expires,
// under a ceiling. In process, against the reference server: a fault that always breaks the clause, and one that
// breaks it on every other answer, the first among them (each test starts a server of its own, so its count starts
// at the first answer).

const CLAUSE = 'signup-token.state.expired-not-enabled';
const always = FAULTS.find((f) => f.name === 'expired-token-enabled')!;

async function served<T>(use: (baseUrl: string) => Promise<T>): Promise<T> {
  const sometimes = expiredTokenEnabledSometimes();
  const server = await startReferenceServer(0, [always, sometimes]);
  try {
    return await use(`${server.url}/variants/`);
  } finally {
    await new Promise<void>((resolve) => server.server.close(() => resolve()));
  }
}

const scratch = () => mkdtempSync(path.join(process.env.SELF_TESTS_SCRATCH ?? os.tmpdir(), 'confirm-'));

async function run(baseUrl: string, options: Partial<ConformanceOptions> = {}, env: Record<string, string> = {}) {
  const dir = scratch();
  const result = await runConformance({ env: { ...referenceEnvironment(baseUrl), ...env }, cwd: dir, reportDir: path.join(dir, 'report'), ...options });
  const target = result.targets[0];
  return { result, dir, target, clause: target?.report.clauses.find((c) => c.id === CLAUSE) };
}

const deviations = (dir: string, entries: object[]) => {
  const file = path.join(dir, 'deviations.json');
  writeFileSync(file, JSON.stringify({ deviations: entries }));
  return file;
};

test('a clause that fails every time stays failed with --confirm 2, its requests sent twice more', async () => {
  const { result, target, clause } = await served((base) => run(`${base}${always.name}`, { confirm: 2 }));
  expect(result.exitCode).toBe(1);
  expect(clause).toMatchObject({ status: 'failed', confirmation: { runs: 3, failed: 3, passed: 0, outcomes: ['failed', 'failed', 'failed'] } });
  expect(reportSchemaErrors(target.report)).toEqual([]);
  // Only the failed clause's requests were sent again, not the plan: the five token requests it judges, twice.
  const bundle = JSON.parse(readBundle(target.bundle!).get(EXCHANGES)!.toString('utf8'));
  const paths = (round: { request: { path: string; credential: string } }[]) => round.map((e) => `${e.request.credential} ${e.request.path}`);
  expect(bundle.confirmations.map(paths)).toEqual([1, 2].map(() => [1, 2, 3, 4, 5].map((n) => `admin /api/admin/invite-link/tokens/%24SIGNUP_TOKEN_${n}`)));
});

test('a clause that fails some of the time is flaky: errored, no verdict, exit 3, the differing answers side by side', async () => {
  const { result, target, clause } = await served((base) => run(`${base}${expiredTokenEnabledSometimes().name}`, { confirm: 2 }));
  expect(result.exitCode).toBe(3);
  expect(target.report.verdict).toBe('error');
  expect(target.report.summary.failed).toBe(0);
  expect(clause?.status).toBe('errored');
  expect(clause?.reason).toMatch(/^flaky: clause signup-token\.state\.expired-not-enabled failed 2 of the 3 times its requests were sent, and passed 1/);
  const confirmation = clause!.confirmation!;
  expect(confirmation.outcomes).toEqual(['failed', 'passed', 'failed']);
  // The expired token answered enabled (true), then not (false, a byte longer), then enabled again, side by side.
  const expired = confirmation.answers.filter((row) => new Set(row.answers.map((a) => a.bodyBytes)).size > 1);
  expect(expired).toHaveLength(1);
  const [a, b, c] = expired[0].answers;
  expect([b.bodyBytes - a.bodyBytes, c.bodyBytes - a.bodyBytes]).toEqual([1, 0]);
  expect(a.bodySha256).not.toBe(b.bodySha256);
  expect(expired[0].path).toMatch(/^\/api\/admin\/invite-link\/tokens\/\$SIGNUP_TOKEN_\d$/);
  expect(reportSchemaErrors(target.report)).toEqual([]);
  const read = (name: string) => readFileSync(path.join(target.reportDir, name), 'utf8');
  expect(read('summary.md')).toContain('flaky: failed 2 of 3 times, passed 1; no verdict');
  expect(read('index.html')).toContain('data-testid="confirmations"');
  // No token in any written form, the answers included.
  for (const name of ['conformance.json', 'summary.md', 'index.html']) expect(read(name)).not.toContain(referenceEnvironment('').CONFORMANCE_ADMIN_TOKEN);
});

test('without --confirm nothing is sent again: the same fault is a plain failure, exit 1', async () => {
  const { result, target, clause } = await served((base) => run(`${base}${expiredTokenEnabledSometimes().name}`));
  expect(result.exitCode).toBe(1);
  expect(clause?.status).toBe('failed');
  expect(clause?.confirmation).toBeUndefined();
  expect(JSON.parse(readBundle(target.bundle!).get(EXCHANGES)!.toString('utf8')).confirmations).toBeUndefined();
});

test('the bundle of a confirmed run verifies, and one whose confirmations were dropped does not', async () => {
  const { target } = await served((base) => run(`${base}${expiredTokenEnabledSometimes().name}`, { confirm: 2 }));
  const files = readBundle(target.bundle!);
  expect(verifyBundle(files).differences).toEqual([]);
  // Replayed, nothing sent, the bundle's confirmations are judged again as the run judged them.
  const dir = scratch();
  const replayed = await runConformance({ replay: target.bundle, cwd: dir, reportDir: path.join(dir, 'report') });
  expect(replayed.exitCode).toBe(3);
  expect(replayed.targets[0].report.clauses.find((c) => c.id === CLAUSE)).toMatchObject({
    status: 'errored',
    confirmation: { outcomes: ['failed', 'passed', 'failed'] },
  });
  const exchanges = JSON.parse(files.get(EXCHANGES)!.toString('utf8'));
  const dropped = withFile(files, EXCHANGES, JSON.stringify({ ...exchanges, confirmations: undefined }));
  expect(verifyBundle(dropped).differences).toContain(`clause ${CLAUSE}: the bundle's report says errored, its exchanges give failed`);
  // Confirmations of other requests than the failure was judged from are named, never judged.
  const moved = exchanges.confirmations.map((round: { request: { path: string } }[]) =>
    round.map((e) => ({ ...e, request: { ...e.request, path: '/api/admin/projects' } })),
  );
  const other = withFile(files, EXCHANGES, JSON.stringify({ ...exchanges, confirmations: moved }));
  expect(verifyBundle(other).differences[0]).toMatch(
    /^the bundle's confirmations: confirmation 1 sent other requests than the 5 the failed clauses were judged from/,
  );
});

test('a quarantine excuses a flaky clause until it expires, and shows its debt', async () => {
  const { result, target, clause } = await served(async (base) => {
    const file = deviations(scratch(), [
      { clause: CLAUSE, kind: 'flaky', reason: 'answers differ behind the cache', expires: '2999-01-01', since: '2026-01-01' },
    ]);
    return run(`${base}${expiredTokenEnabledSometimes().name}`, { confirm: 2, deviations: file });
  });
  expect(result.exitCode).toBe(0);
  expect(clause).toMatchObject({ status: 'known-deviation', deviation: { kind: 'flaky', state: 'applied' }, confirmation: { passed: 1 } });
  expect(target.report.quarantine).toEqual({
    count: 1,
    expired: 0,
    firstExpiry: '2999-01-01',
    oldest: { clause: CLAUSE, since: '2026-01-01' },
    clauses: [{ clause: CLAUSE, reason: 'answers differ behind the cache', expires: '2999-01-01', since: '2026-01-01', state: 'applied' }],
  });
  expect(reportSchemaErrors(target.report)).toEqual([]);
  expect(readFileSync(path.join(target.reportDir, 'summary.md'), 'utf8')).toContain('**Quarantine:** 1 clause quarantined (kind: flaky), 0 expired');
  expect(verifyBundle(readBundle(target.bundle!)).differences).toEqual([]);
});

test('an expired quarantine excuses nothing: the flaky clause is errored again, exit 3', async () => {
  const { result, clause, target } = await served(async (base) => {
    const file = deviations(scratch(), [{ clause: CLAUSE, kind: 'flaky', reason: 'answers differ', expires: '2020-01-01' }]);
    return run(`${base}${expiredTokenEnabledSometimes().name}`, { confirm: 2, deviations: file });
  });
  expect(result.exitCode).toBe(3);
  expect(clause).toMatchObject({ status: 'errored', deviation: { state: 'expired' } });
  expect(target.report.quarantine).toMatchObject({ count: 1, expired: 1 });
});

test('a quarantine without an expiry, or more quarantines than the ceiling, is a configuration error, nothing sent', async () => {
  const dir = scratch();
  const base = 'http://127.0.0.1:9';
  const absent = await run(base, { deviations: deviations(dir, [{ clause: CLAUSE, kind: 'flaky', reason: 'answers differ' }]) });
  expect(absent.result.exitCode).toBe(2);
  expect(absent.result.reason).toContain(`deviation 1 (${CLAUSE}): a quarantine (kind: flaky) needs expires`);
  const two = [CLAUSE, 'projects.owner.group'].map((clause) => ({ clause, kind: 'flaky', reason: 'answers differ', expires: '2999-01-01' }));
  const over = await run(base, { deviations: deviations(dir, two) }, { CONFORMANCE_QUARANTINE_MAX: '1' });
  expect(over.result.exitCode).toBe(2);
  expect(over.result.reason).toContain('quarantines 2 clauses (kind: flaky), more than the 1 CONFORMANCE_QUARANTINE_MAX allows');
  // A plain deviation, which expires or not, counts for no quarantine.
  const plain = await run(
    base,
    { deviations: deviations(dir, [{ clause: CLAUSE, reason: 'known' }]) },
    { CONFORMANCE_QUARANTINE_MAX: '0', CONFORMANCE_RUN_TIMEOUT_MS: '1' },
  );
  expect(plain.result.exitCode).not.toBe(2);
});
