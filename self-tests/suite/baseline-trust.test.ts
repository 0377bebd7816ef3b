import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REPORTS, type BundleFiles } from '../../harness/evidence/bundle.ts';
import { ConfigError } from '../../harness/files/config-error.ts';
import { compareWithBaseline } from '../../reporters/baseline.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { gateText } from '../../reporters/gate.ts';
import { runConformance } from '../../run/engine.ts';
import { loadRun } from '../../run/prepare.ts';
import { bundleArchive, referenceBundle, removeScratch, resealed, scratch } from '../support/in-process-bundle.ts';
import { commandEnv, runCommand } from '../support/run-suite.ts';

// The ratchet (CONFORMANCE_GATE=regressions) sets aside the failures its baseline had, so the baseline decides the
// exit code: it is taken only as a verified evidence bundle holds it. A bare conformance.json (anyone can write
// "every clause failed" in one) is refused under the ratchet, one line, exit code 2, nothing sent; a report whose
// verdict or counts are not what its clauses give is refused wherever a report is read; and a baseline of another
// target is named in the gate's line. Baselines are made in process: a bundle as a run makes one, the report folder
// a run leaves around it.

const good = referenceBundle();
const CONFORMANCE = `${REPORTS}/conformance.json`;
test.afterAll(removeScratch);

/** A report folder as a run leaves it: its conformance.json, and the evidence bundle beside it. */
function reportFolder(files: BundleFiles, report: Buffer = files.get(CONFORMANCE)!): string {
  const dir = scratch();
  writeFileSync(path.join(dir, 'conformance.json'), report);
  cpSync(bundleArchive(files), path.join(dir, 'evidence.tar.gz'));
  return dir;
}

/** A conformance.json of its own in a folder, nothing beside it. */
function bareReport(text: Buffer | string): string {
  const dir = scratch();
  const file = path.join(dir, 'conformance.json');
  writeFileSync(file, text);
  return file;
}

const reportOf = (files: BundleFiles): ConformanceReport => JSON.parse(files.get(CONFORMANCE)!.toString('utf8'));
/** The report with every MUST clause failed, its verdict and summary made to match: what a hand that knows the format writes. */
function everyClauseFailed(report: ConformanceReport): string {
  const clauses = report.clauses.map((c) => (c.level === 'MUST' ? { ...c, status: 'failed' as const } : c));
  const must = clauses.filter((c) => c.level === 'MUST').length;
  const summary = { ...report.summary, passed: 0, failed: must, must: { ...report.summary.must, passed: 0, failed: must } };
  return `${JSON.stringify({ ...report, verdict: 'fail', clauses, summary }, null, 2)}\n`;
}

/** The run's configuration as loadRun reads it, the baseline given, before anything is sent; the refusal's line, or undefined. */
function refusal(baseline: string, gate = 'regressions'): string | undefined {
  try {
    loadRun(
      { CONFORMANCE_EMBEDDED: 'true', CONFORMANCE_BASELINE: baseline, CONFORMANCE_GATE: gate, CONFORMANCE_REPORT_DIR: path.join(scratch(), 'r') },
      scratch(),
    );
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

test('the ratchet trusts only a verified baseline: a report folder whose bundle holds its report is taken', () => {
  expect(refusal(reportFolder(good))).toBeUndefined();
  expect(refusal(bundleArchive(good))).toBeUndefined();
});

test('the ratchet trusts only a verified baseline: a bare conformance.json is refused in one line that says what to give', () => {
  const file = bareReport(everyClauseFailed(reportOf(good)));
  expect(refusal(file)).toBe(
    `CONFORMANCE_BASELINE: ${path.dirname(file)} has no evidence bundle beside its conformance.json (${path.dirname(file)}/evidence.tar.gz), so the baseline cannot be verified; under CONFORMANCE_GATE=regressions give the run's evidence bundle or its whole report folder`,
  );
  // Compared without the ratchet, the exit code is the verdict's: a report is still taken for what it says changed.
  expect(refusal(bareReport(good.get(CONFORMANCE)!), 'must')).toBeUndefined();
});

test('the ratchet trusts only a verified baseline: a report edited beside its bundle, or a bundle resealed after an edit, is refused', () => {
  const edited = reportFolder(good, Buffer.from(everyClauseFailed(reportOf(good))));
  expect(refusal(edited)).toBe(`CONFORMANCE_BASELINE: ${edited}/conformance.json is not the report its evidence bundle holds: it was changed after its run`);
  // Its manifest says fail too, every digest that of its file: only judging the exchanges again tells.
  const edit = new Map([...good, [CONFORMANCE, Buffer.from(everyClauseFailed(reportOf(good)))]]);
  const folder = reportFolder(resealed(edit, (m) => ({ ...m, verdict: 'fail' })));
  expect(refusal(folder)).toMatch(
    new RegExp(
      `^CONFORMANCE_BASELINE: the evidence bundle ${folder}/evidence\\.tar\\.gz does not verify \\(clause \\S+: the bundle's report says failed, its exchanges give passed\\); admin-api-conformance verify names every difference$`,
    ),
  );
});

test('the ratchet trusts only a verified baseline: refused through the engine with exit code 2 and one line, before any request', async () => {
  let [out, err] = ['', ''];
  const cwd = scratch();
  const file = bareReport(everyClauseFailed(reportOf(good)));
  const result = await runConformance({
    env: commandEnv({
      CONFORMANCE_EMBEDDED: 'true',
      CONFORMANCE_BASELINE: file,
      CONFORMANCE_GATE: 'regressions',
      CONFORMANCE_REPORT_DIR: path.join(cwd, 'r'),
    }) as Record<string, string>,
    cwd,
    output: { out: (t) => void (out += t), err: (t) => void (err += t) },
  });
  expect([result.exitCode, out]).toEqual([2, '']);
  expect(err.trim().split('\n')).toEqual([
    expect.stringMatching(/^conformance: configuration error: CONFORMANCE_BASELINE: .* cannot be verified; under CONFORMANCE_GATE=regressions/),
  ]);
  // The error report a refused configuration leaves: no request was sent.
  const report = JSON.parse(readFileSync(path.join(cwd, 'r', 'conformance.json'), 'utf8')) as ConformanceReport;
  expect([report.verdict, report.requests, result.targets]).toEqual(['error', undefined, []]);
});

/** Reports that say otherwise than their clauses, each with what the line names. */
const INCONSISTENT: [title: string, edit: (report: ConformanceReport) => ConformanceReport, says: string][] = [
  [
    'verdict pass beside failed clauses',
    (r) => ({ ...r, verdict: 'pass', clauses: r.clauses.map((c, i) => (i === 0 ? { ...c, status: 'failed' } : c)) }),
    'its verdict is pass, and its clauses give fail',
  ],
  ['verdict fail beside clauses that pass', (r) => ({ ...r, verdict: 'fail' }), 'its verdict is fail, and its clauses give pass'],
  [
    'a summary that counts no failure',
    (r) => ({ ...r, summary: { ...r.summary, passed: r.summary.passed - 1, failed: 1 } }),
    'its summary does not count its clauses',
  ],
];

for (const [title, edit, says] of INCONSISTENT) {
  test(`an inconsistent report (${title}) is refused as a baseline, whatever the gate, and by diff`, async () => {
    const file = bareReport(JSON.stringify(edit(reportOf(good))));
    const line = `${file} is not a report any run wrote: ${says}`;
    expect(refusal(file, 'must')).toBe(`CONFORMANCE_BASELINE: ${line}`);
    const diff = await runCommand(['diff', file, bareReport(good.get(CONFORMANCE)!)]);
    expect([diff.exitCode, diff.stdout, diff.stderr]).toEqual([2, '', `admin-api-conformance diff: ${line}\n`]);
  });
}

test("the ratchet names another target's baseline in its line: the baseline's target and this run's", () => {
  const baseline = reportOf(good);
  const now = { ...baseline, target: { ...baseline.target, name: 'staging', baseUrl: 'https://staging.invalid' } };
  const [compared] = compareWithBaseline([now], { source: 'prod/', reports: [baseline] }, 'regressions');
  expect(gateText(compared)).toBe(
    'gate (ratchet): exit code 0: nothing regressed against prod/; the baseline is of another target ("reference" at http://reference.invalid; this run\'s is "staging" at https://staging.invalid)',
  );
  // The same name at another base URL is another deployment too; the same target is not named.
  const moved = { ...baseline, target: { ...baseline.target, baseUrl: 'https://moved.invalid' } };
  expect(gateText(compareWithBaseline([moved], { source: 'prod/', reports: [baseline] }, 'regressions')[0])).toContain(
    'the baseline is of another target ("reference" at http://reference.invalid; this run\'s is "reference" at https://moved.invalid)',
  );
  expect(gateText(compareWithBaseline([baseline], { source: 'prod/', reports: [baseline] }, 'regressions')[0])).toBe(
    'gate (ratchet): exit code 0: nothing regressed against prod/',
  );
});

test('the ratchet trusts only a verified baseline: a matrix folder is verified target by target', () => {
  const dir = scratch();
  const folder = reportFolder(good);
  mkdirSync(path.join(dir, 'targets'));
  cpSync(folder, path.join(dir, 'targets', 'reference'), { recursive: true });
  const matrix = { kind: 'matrix', targets: [{ name: 'reference', report: 'targets/reference/index.html' }] };
  writeFileSync(path.join(dir, 'conformance.json'), JSON.stringify(matrix));
  expect(refusal(dir)).toBeUndefined();
  writeFileSync(path.join(dir, 'targets', 'reference', 'conformance.json'), everyClauseFailed(reportOf(good)));
  expect(refusal(dir)).toContain('targets/reference/conformance.json is not the report its evidence bundle holds');
});
