import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer, type Variant } from '../../reference-server/server.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { leaveChromium, sharedChromium } from '../support/browser.ts';
import { verifyCommand } from '../support/bundles.ts';
import { ctrfSchemaErrors } from '../support/ctrf-schema.ts';
import { runSuite } from '../support/run-suite.ts';

// Several target files in one run: one Playwright project each, a report per target and a target × clause matrix.

const noGroupName: Variant = {
  name: 'group-owner-without-name',
  description: 'drops the name of every group owner',
  transform: (_request, faithful) => {
    const response = faithful();
    for (const project of (response.body as { projects?: { owners?: Record<string, unknown>[] }[] }).projects ?? []) {
      for (const owner of project.owners ?? []) if (owner.ownerType === 'group') delete owner.name;
    }
    return response;
  },
};

let server: Awaited<ReturnType<typeof startReferenceServer>>;
test.beforeAll(async () => (server = await startReferenceServer(0, [noGroupName])));
test.afterAll(async () => new Promise<void>((resolve) => server.server.close(() => resolve())));

function targetFile(dir: string, name: string, baseUrl: string): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `name: ${name}`,
      `baseUrl: ${baseUrl}`,
      `adminToken: ${REFERENCE_FIXTURES.adminToken}`,
      `forbiddenToken: ${REFERENCE_FIXTURES.forbiddenToken}`,
      `signupTokens: [${REFERENCE_FIXTURES.signupTokens.join(', ')}]`,
      '',
    ].join('\n'),
  );
  return file;
}

test('two targets side by side: each gets its own report, the matrix shows where they differ', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'targets-'));
  const files = [targetFile(dir, 'faithful', server.url), targetFile(dir, 'broken', `${server.url}/variants/${noGroupName.name}`)];
  const run = await runSuite({ CONFORMANCE_TARGETS: files.join(',') });
  expect(run.exitCode, run.stdout).toBe(1);
  const matrix = run.report as unknown as MatrixReport;
  expect(matrix.kind).toBe('matrix');
  expect(matrix.targets.map((t) => [t.name, t.verdict])).toEqual([
    ['faithful', 'pass'],
    ['broken', 'fail'],
  ]);
  const row = matrix.clauses.find((c) => c.id === 'projects.owner.group')!;
  expect(row).toMatchObject({ status: 'failed', byTarget: { faithful: 'passed', broken: 'failed' } });
  expect(matrix.clauses.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['projects.owner.group']);
  for (const name of ['faithful', 'broken']) expect(existsSync(path.join(run.reportDir, 'targets', name, 'conformance.json'))).toBe(true);
  // CTRF is one target's run: each target's folder has its own, its target in every test's labels.
  for (const name of ['faithful', 'broken']) {
    const ctrf = JSON.parse(readFileSync(path.join(run.reportDir, 'targets', name, 'ctrf.json'), 'utf8'));
    expect(ctrfSchemaErrors(ctrf)).toEqual([]);
    expect(new Set(ctrf.results.tests.map((t: { labels: { target: string } }) => t.labels.target))).toEqual(new Set([name]));
  }
  // The failing target first, in the summary and on the page.
  expect(readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8')).toContain('| `projects.owner.group` | failed | passed |');
  // The matrix's own badge and CTRF beside its page, as the README lists them: every target's tests in one file.
  expect(readFileSync(path.join(run.reportDir, 'badge.svg'), 'utf8')).toContain('>FAIL · 1/2 targets pass</text>');
  const matrixCtrf = JSON.parse(readFileSync(path.join(run.reportDir, 'ctrf.json'), 'utf8'));
  expect(ctrfSchemaErrors(matrixCtrf)).toEqual([]);
  expect(matrixCtrf.results.summary).toMatchObject({ tests: 92, failed: 1 });
  expect(matrixCtrf.results.extra['admin-api-conformance.verdict']).toBe('fail');

  const browser = await sharedChromium();
  const page = await browser.newPage();
  await page.goto(`file://${path.join(run.reportDir, 'index.html')}`);
  await expect(page.getByTestId('verdict')).toHaveText('FAIL');
  await expect(page.getByTestId('target-verdict')).toHaveText(['FAIL', 'PASS']);
  await expect(page.locator('tr[data-clause="projects.owner.group"] td.cell')).toHaveText(['failed', 'passed']);
  await leaveChromium(browser);
});

// --project leaves a target's tests out, as --grep leaves clauses out: the run judged part of what it was given.
test('a run that --project narrows to one of two targets passes neither: the other is not judged, no verdict, exit code 3', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'targets-'));
  const files = [targetFile(dir, 'faithful', server.url), targetFile(dir, 'broken', `${server.url}/variants/${noGroupName.name}`)];
  const run = await runSuite({ CONFORMANCE_TARGETS: files.join(',') }, ['--project=faithful']);
  expect(run.exitCode, run.stdout).toBe(3);
  const matrix = run.report as unknown as MatrixReport;
  expect(matrix.targets.map((t) => [t.name, t.verdict])).toEqual([
    ['faithful', 'pass'],
    ['broken', 'error'],
  ]);
  const broken = JSON.parse(readFileSync(path.join(run.reportDir, 'targets', 'broken', 'conformance.json'), 'utf8')) as {
    clauses: { status: string }[];
  };
  expect(new Set(broken.clauses.map((c) => c.status))).toEqual(new Set(['not-judged']));
});

test('target files that share a name are a configuration error', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'targets-'));
  const a = targetFile(dir, 'same', server.url);
  const b = path.join(dir, 'other.yaml');
  writeFileSync(b, readFileSync(a));
  const run = await runSuite({ CONFORMANCE_TARGETS: `${a},${b}` });
  expect(run.exitCode).toBe(2);
  expect(run.stderr).toContain(`the target file ${b} has the name "same" of the target file ${a}; give each target of CONFORMANCE_TARGETS a name of its own`);
});

// Each target's verdict is its own: one that cannot be reached errors its own clauses, never the others', and the
// bundle of the one that answered verifies.
test('an unreachable target among several errors its own clauses only: the others keep their verdicts and their bundles verify', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'targets-'));
  const files = [targetFile(dir, 'faithful', server.url), targetFile(dir, 'gone', 'http://127.0.0.1:9')];
  const run = await runSuite({ CONFORMANCE_TARGETS: files.join(',') });
  expect(run.exitCode, run.stdout).toBe(3);
  const matrix = run.report as unknown as MatrixReport;
  expect(matrix.targets.map((t) => [t.name, t.verdict])).toEqual([
    ['faithful', 'pass'],
    ['gone', 'error'],
  ]);
  const gone = JSON.parse(readFileSync(path.join(run.reportDir, 'targets', 'gone', 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(new Set(gone.clauses.map((c) => c.status))).toEqual(new Set(['errored']));
  expect(gone.errors[0]).toContain('conformance run stopped: no request to http://127.0.0.1:9 got an answer');
  const faithful = JSON.parse(readFileSync(path.join(run.reportDir, 'targets', 'faithful', 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(faithful.errors).toEqual([]);
  const verified = await verifyCommand([path.join(run.reportDir, 'targets', 'faithful', 'evidence.tar.gz')]);
  expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
});
