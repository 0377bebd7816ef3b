import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { tamperedCopy, unpack, verifyCommand } from '../support/bundles.ts';
import { referenceTargetEnv, runSuite, type SuiteRun } from '../support/run-suite.ts';

// Issue 13, points 3 and 4, "Done when": a bundle from a run against a faulty variant verifies offline, and
// verify names each tampering of a copy of it.

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;

test.describe.configure({ mode: 'serial' });

let run: SuiteRun;
let folder: string;
test.beforeAll(async () => {
  const { server, url } = await startReferenceServer(0, [fault]);
  try {
    run = await runSuite(referenceTargetEnv(`${url}/variants/${fault.name}`));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  folder = await unpack(path.join(run.reportDir, 'evidence.tar.gz'));
});

test('a run leaves evidence.tar.gz: the exchanges, the reports and a manifest of their digests', () => {
  expect(run.exitCode, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toContain(`evidence: ${path.join(run.reportDir, 'evidence.tar.gz')}`);
  const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
  expect(Object.keys(manifest.files).sort()).toEqual([
    'document/admin-api.md',
    'exchanges.json',
    'reports/badge.svg',
    'reports/conformance.json',
    'reports/ctrf.json',
    'reports/index.html',
    'reports/junit.xml',
    'reports/requests.json',
    'reports/summary.md',
  ]);
  for (const [name, digest] of Object.entries(manifest.files))
    expect(
      createHash('sha256')
        .update(readFileSync(path.join(folder, name)))
        .digest('hex'),
      name,
    ).toBe(digest);
  expect(manifest).toMatchObject({
    bundleVersion: 1,
    verdict: 'fail',
    suite: run.report!.suite,
    document: run.report!.document,
    target: { name: run.report!.target.name },
  });
  // The bundle's report is the run's report.
  expect(readFileSync(path.join(folder, 'reports', 'conformance.json'), 'utf8')).toBe(readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8'));
  expect(existsSync(path.join(run.reportDir, '.evidence-exchanges.json'))).toBe(false);
});

test('verify re-judges the bundle and exits 0, for the archive and for its unpacked folder', async () => {
  for (const bundle of [path.join(run.reportDir, 'evidence.tar.gz'), folder]) {
    const verified = await verifyCommand([bundle]);
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('VERIFIED: every digest holds');
    expect(verified.stdout).toContain('verdict FAIL');
  }
});

/** One byte of the projects list's body: a health of 100 becomes 900, off the scale of section 2.5. */
const oneByteOfABody = (text: string) => text.replace('\\"health\\":100', '\\"health\\":900');
const oneStatus = (text: string) => text.replace(/("id": "signup-token\.response\.json",[^}]*?"status": )"passed"/, '$1"failed"');
const theVerdict = (text: string) => text.replace('"verdict": "fail"', '"verdict": "pass"');

test('verify names each tampering: one byte of one body, one clause status, the verdict', async () => {
  const body = await verifyCommand([tamperedCopy(folder, 'exchanges.json', oneByteOfABody)]);
  expect(body.exitCode).toBe(1);
  expect(body.stdout).toContain('difference  exchanges.json: changed');
  expect(body.stdout).toContain("difference  clause projects.project.health-range: the bundle's report says passed, its exchanges give failed");

  const status = await verifyCommand([tamperedCopy(folder, 'reports/conformance.json', oneStatus)]);
  expect(status.exitCode).toBe(1);
  expect(status.stdout).toContain('difference  reports/conformance.json: changed');
  expect(status.stdout).toContain("difference  clause signup-token.response.json: the bundle's report says failed, its exchanges give passed");

  const verdict = await verifyCommand([tamperedCopy(tamperedCopy(folder, 'reports/conformance.json', theVerdict), 'manifest.json', theVerdict)]);
  expect(verdict.exitCode).toBe(1);
  expect(verdict.stdout).toContain('difference  reports/conformance.json: changed');
  expect(verdict.stdout).toContain("difference  verdict: the bundle's report says pass, its exchanges give fail");
});

test('a body changed with its digest changed to match is still caught, by judging it again', async () => {
  const copy = tamperedCopy(folder, 'exchanges.json', oneByteOfABody);
  const digest = createHash('sha256')
    .update(readFileSync(path.join(copy, 'exchanges.json')))
    .digest('hex');
  const resealed = tamperedCopy(copy, 'manifest.json', (text) => text.replace(/("exchanges.json": )"[0-9a-f]{64}"/, `$1"${digest}"`));
  const result = await verifyCommand([resealed]);
  expect(result.exitCode).toBe(1);
  expect(result.stdout).not.toContain('exchanges.json: changed');
  expect(result.stdout).toContain('clause projects.project.health-range');
});

test('a bundle made by another suite version is refused, exit 2, unless asked to judge it anyway', async () => {
  // Its report says the same version as its manifest, whose digest of the report is that of the new report.
  const olderVersion = (text: string) => text.replace('"version": "0.1.0"', '"version": "0.0.9"');
  const report = tamperedCopy(folder, 'reports/conformance.json', olderVersion);
  const digest = createHash('sha256')
    .update(readFileSync(path.join(report, 'reports', 'conformance.json')))
    .digest('hex');
  const other = tamperedCopy(report, 'manifest.json', (text) => olderVersion(text).replace(/("reports\/conformance.json": )"[0-9a-f]{64}"/, `$1"${digest}"`));
  const refused = await verifyCommand([other]);
  expect(refused.exitCode).toBe(2);
  expect(refused.stdout).toContain('refused: the bundle was made by admin-api-conformance 0.0.9');
  const anyway = await verifyCommand([other, '--anyway']);
  expect(anyway.stdout).toContain('judged anyway');
  expect(anyway.exitCode, anyway.stdout).toBe(0);
});

test('verify of something that is no bundle says so in one line, exit 2', async () => {
  const result = await verifyCommand([path.join(run.reportDir, 'summary.md')]);
  expect(result.exitCode).toBe(2);
  expect(result.stderr).toMatch(/^admin-api-conformance verify: \S+summary\.md cannot be verified: it is no whole tar\.gz archive \([^\n]+\)\n$/);
});

test('a bundle that cannot be written is named as missing, and the verdict and reports stand', async () => {
  const { server, url } = await startReferenceServer(0, []);
  const blocked = path.join(os.tmpdir(), `conformance-evidence-blocked-${process.pid}`);
  writeFileSync(blocked, 'a file where the evidence folder would be');
  try {
    const written = await runSuite(referenceTargetEnv(url, { CONFORMANCE_EVIDENCE_DIR: path.join(blocked, 'evidence') }));
    expect(written.exitCode, written.stdout + written.stderr).toBe(0);
    expect(written.report?.verdict).toBe('pass');
    expect(written.stdout).toMatch(/evidence: none, it could not be written \(.*ENOTDIR/);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(blocked, { force: true });
  }
});
