import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunDiff } from '../../reporters/diff.ts';
import { documentFile } from '../../harness/contracts/document.ts';
import { MANIFEST, sha256 } from '../../harness/evidence/bundle.ts';
import { check } from '../../harness/files/checked.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS, VALID_VARIANTS } from '../../reference-server/variants/index.ts';
import { unpack } from '../support/bundles.ts';
import { referenceTargetEnv, runCommand, runSuite, statusesOf, type SuiteRun, diffLines } from '../support/run-suite.ts';
import { runCopy, suiteCopy, type SuiteCopy } from '../support/suite-copy.ts';

// Issue 31, point 3: one target judged by this suite and by a copy of it whose document makes a field required
// (and whose contracts were written from it, as the next version's would be), each engine run in this process
// from its own files. The target leaves the field out; the clause that now fails is changed by the document, not
// regressed, once diff has both texts: from the bundles, which carry them, or given beside the reports.

const variant = VALID_VARIANTS.find((v) => v.name === 'optional-fields-absent')!;
/** A target that regressed besides: its projects keep featureCount and lose their name, which both texts require. */
const fault = FAULTS.find((f) => f.name === 'project-without-name')!;
const ROW = '| featureCount | number | no | no |';
const REQUIRED_ROW = '| featureCount | number | yes | no |';
const ID = 'projects.project.required';

test.describe.configure({ mode: 'serial' });

let server: Awaited<ReturnType<typeof startReferenceServer>>;
let copy: SuiteCopy;
let old: SuiteRun;
let neu: SuiteRun;
let broken: SuiteRun;
test.beforeAll(async () => {
  test.setTimeout(60_000);
  server = await startReferenceServer(0, [variant, fault]);
  copy = suiteCopy({
    'contracts/spec/admin-api.md': (text) => text.replace(ROW, REQUIRED_ROW),
    'contracts/project.schema.json': (text) => text.replace('"required": ["id", "name"]', '"required": ["id", "name", "featureCount"]'),
  });
  const env = referenceTargetEnv(`${server.url}/variants/${variant.name}`);
  const faulty = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  [old, neu, broken] = await Promise.all([runSuite(env), runCopy(copy, env), runCopy(copy, faulty)]);
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => server.server.close(() => resolve()));
  for (const dir of [old?.reportDir, neu?.reportDir, broken?.reportDir, copy?.root]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const bundleOf = (run: SuiteRun) => path.join(run.reportDir, 'evidence.tar.gz');
const NEW_TEXT = () => path.join(copy.root, 'contracts', 'spec', 'admin-api.md');

test('the copy judges the clause the edited row touches failed, where this suite judges it passed', () => {
  expect(statusesOf(old.report)[ID], old.stdout + old.stderr).toBe('passed');
  expect(statusesOf(neu.report)[ID], neu.stdout + neu.stderr).toBe('failed');
  expect(neu.report!.document.sha256).not.toBe(old.report!.document.sha256);
});

test('a diff of the two bundles names the changed row, and the clause as changed by the document: exit code 0', async () => {
  const lines = await diffLines(bundleOf(old), bundleOf(neu), 0);
  expect(lines[0]).toBe('Conformance diff: nothing regressed; 1 clause changed, 45 unchanged');
  expect(lines).toContain('    row 2.5 Project object, featureCount: required no → yes; touches projects.project.required');
  expect(lines).toContain('changed by the document (1):');
  expect(
    lines.find((l) =>
      l.startsWith(
        `  ${ID} (MUST, passed → failed): the document changed 2.5 Project object, featureCount: required no → yes; GET /api/admin/projects → 200: at /projects/0/featureCount:`,
      ),
    ),
  ).toBeDefined();
  const json = await runCommand(['diff', bundleOf(old), bundleOf(neu), '--format=json']);
  const diff = JSON.parse(json.stdout) as RunDiff;
  expect(check(new URL('../../commands/diff.schema.json', `file://${__filename}`), diff)).toEqual({ ok: true, value: diff });
  expect(diff.changes.map((c) => [c.id, c.kind])).toEqual([[ID, 'changed-by-document']]);
  expect(diff.documentRows?.map((r) => [r.table, r.row, r.aspect, r.old, r.new, r.clauses])).toEqual([
    ['2.5 Project object', 'featureCount', 'required', 'no', 'yes', [ID]],
  ]);
  expect(diff.regressions).toBe(0);
});

test('a run compared with a baseline judged by the other text names the clause changed by the document, as diff does, and the gate still fails it', async () => {
  const env = referenceTargetEnv(`${server.url}/variants/${variant.name}`);
  const [bundled, reported] = await Promise.all(
    // The bundle carries the old text; a report names it only by its hash, which the copy does not ship.
    [bundleOf(old), path.join(old.reportDir, 'conformance.json')].map((baseline) =>
      runCopy(copy, { ...env, CONFORMANCE_BASELINE: baseline, CONFORMANCE_GATE: 'regressions' }),
    ),
  );
  const changesOf = (run: SuiteRun) => run.report?.baseline?.changes.map((c) => [c.id, c.kind]);
  expect(changesOf(bundled), bundled.stdout + bundled.stderr).toEqual([[ID, 'changed-by-document']]);
  expect(bundled.report?.baseline?.regressions).toBe(0);
  expect(bundled.report?.baseline?.judgeChanged.join('\n')).toContain("the document's text: sha256");
  expect(bundled.report?.baseline?.judgeChanged.join('\n')).toContain('1 change to its rows');
  expect(changesOf(reported), reported.stdout + reported.stderr).toEqual([[ID, 'regressed']]);
  expect(reported.report?.baseline?.judgeChanged.join('\n')).toContain("its rows cannot be compared: the old run's text is not at hand");
  // Another judge made the baseline: the ratchet takes no failure for one the baseline had, whatever explains it.
  for (const run of [bundled, reported]) expect([run.exitCode, run.report?.verdict]).toEqual([1, 'fail']);
});

test('a clause that fails at a field the changed row does not name regressed, though the row touches it: exit code 1', async () => {
  const run = await runCommand(['diff', bundleOf(old), bundleOf(broken)]);
  expect(run.exitCode, run.stdout + run.stderr).toBe(1);
  const lines = run.stdout.trim().split('\n');
  const regressed = lines.slice(lines.indexOf('regressed (1):') + 1)[0];
  expect(regressed).toBe(
    `  ${ID} (MUST, passed → failed): GET /api/admin/projects → 200: at /projects/0/name: received nothing (the field is absent); the document requires the field "name" to be present; ` +
      'the document changed 2.5 Project object, featureCount: required no → yes, which this clause rests on, but its violation at /projects/0/name lies at none of their fields',
  );
  expect(lines).not.toContain('changed by the document (1):');
});

test('reports name their texts only by hash: without the new text the clause regressed, and the judge says why in one line', async () => {
  // The old run's text is the one this suite ships, which its hash shows; the new run's is nowhere at hand.
  const run = await runCommand(['diff', old.reportDir, neu.reportDir]);
  expect(run.exitCode, run.stdout + run.stderr).toBe(1);
  const lines = run.stdout.trim().split('\n');
  expect(lines.filter((l) => l.includes("the document's text"))).toEqual([
    expect.stringMatching(
      /^ {2}another judge, the document's text: sha256 \w{12} then \w{12}; its rows cannot be compared: the new run's text is not at hand \(a report names it only by its hash\): give --new-document FILE, or diff evidence bundles, which carry it: a change may be the judge's, not the target's$/,
    ),
  ]);
  expect(lines).toContain('regressed (1):');
  const given = await runCommand(['diff', old.reportDir, path.join(neu.reportDir, 'conformance.json'), '--new-document', NEW_TEXT()]);
  expect(given.exitCode, given.stdout + given.stderr).toBe(0);
  expect(given.stdout).toContain('changed by the document (1):');
});

test('a text given that is not the one the run was judged against is refused in one line, exit code 2', async () => {
  const run = await runCommand(['diff', old.reportDir, neu.reportDir, `--new-document=${documentFile()}`]);
  expect(run.exitCode).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([
    `admin-api-conformance diff: --new-document: ${documentFile()} is not the text the new run was judged against: its SHA-256 is ${old.report!.document.sha256}, the run's document's ${neu.report!.document.sha256}`,
  ]);
  const missing = await runCommand(['diff', old.reportDir, neu.reportDir, '--old-document', '/nonexistent/admin-api.md']);
  expect([missing.exitCode, missing.stderr]).toEqual([2, 'admin-api-conformance diff: --old-document: /nonexistent/admin-api.md cannot be read (ENOENT)\n']);
});

test('a bundle whose copy of the document was changed, its manifest resealed, does not verify and is not compared', async () => {
  const folder = await unpack(bundleOf(neu));
  const tampered = mkdtempSync(path.join(os.tmpdir(), 'conformance-diff-document-'));
  try {
    cpSync(folder, tampered, { recursive: true });
    const file = path.join(tampered, 'document', 'admin-api.md');
    // The row put back as it was: the copy now says the old text's row, while the report was judged by the new.
    writeFileSync(file, readFileSync(file, 'utf8').replace(REQUIRED_ROW, ROW));
    const manifest = JSON.parse(readFileSync(path.join(tampered, MANIFEST), 'utf8'));
    manifest.files['document/admin-api.md'] = sha256(readFileSync(file));
    writeFileSync(path.join(tampered, MANIFEST), JSON.stringify(manifest, null, 2));
    const run = await runCommand(['diff', bundleOf(old), tampered]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /^admin-api-conformance diff: \S+ does not verify \(document\/admin-api\.md: its SHA-256 is \w{64}, the run was judged against the document \w{64}\); admin-api-conformance verify names every difference\n$/,
    );
  } finally {
    for (const dir of [folder, tampered]) rmSync(dir, { recursive: true, force: true });
  }
});
