import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { Header } from 'tar';
import { BundleError } from '../../harness/evidence/bundle-error.ts';
import { BUNDLE_LIMITS, readBundle } from '../../harness/evidence/bundle-reader.ts';
import { ConfigError } from '../../harness/files/config-error.ts';
import { loadRun } from '../../run/prepare.ts';
import { bundleRecording } from '../../harness/evidence/bundle-recording.ts';
import { stageEvidence } from '../../harness/evidence/evidence-stage.ts';
import type { RunFacts } from '../../harness/judging/verdicts.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import { writeEvidenceBundle } from '../../reporters/evidence-bundle.ts';
import { verifyCommand } from '../support/bundles.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';
import { bundleArchive, bundleFolder, referenceBundle, removeScratch, scratch } from '../support/in-process-bundle.ts';

// A bundle is read in memory: an archive whose headers state more than a bundle can hold (a tar bomb: a few
// MB that unpack to GiBs) is refused from its headers, before its content is read: the refusal names the size
// the header states, which only the header tells.

const good = referenceBundle();
test.afterAll(removeScratch);

/** A gzipped tar whose one entry states 5 GiB: the header, then 1 MiB of its zeros. */
function bomb(): string {
  const header = new Header({ path: 'exchanges.json', type: 'File', size: 5 * 2 ** 30, mode: 0o644, mtime: new Date(0) });
  header.encode();
  const file = path.join(scratch(), 'evidence.tar.gz');
  writeFileSync(file, gzipSync(Buffer.concat([header.block!, Buffer.alloc(1 << 20)])));
  return file;
}

const TOO_LARGE = `exchanges.json states 5368709120 bytes, more than the ${BUNDLE_LIMITS.fileBytes} this suite reads of one file of a bundle`;

test('an archive whose entry states 5 GiB is refused from its header by a replay and by verify', async () => {
  const file = bomb();
  expect(() => loadRun({ CONFORMANCE_REPLAY: file, CONFORMANCE_REPORT_DIR: path.join(scratch(), 'report') }, os.tmpdir())).toThrow(ConfigError);
  expect(() => loadRun({ CONFORMANCE_REPLAY: file, CONFORMANCE_REPORT_DIR: path.join(scratch(), 'report') }, os.tmpdir())).toThrow(
    `CONFORMANCE_REPLAY: ${file} cannot be replayed: ${TOO_LARGE}; give the evidence.tar.gz a run wrote, or the folder it unpacks to`,
  );
  const verified = await verifyCommand([file]);
  expect(verified.exitCode).toBe(2);
  expect(verified.stdout).toBe('');
  expect(verified.stderr).toBe(`admin-api-conformance verify: ${file} cannot be verified: ${TOO_LARGE}\n`);
});

test('the limits hold for each file and for the files together, in an archive and in a folder', () => {
  const sizes = [...good].map(([name, bytes]) => [name, bytes.length] as const);
  const largest = Math.max(...sizes.map(([, n]) => n));
  const [name] = sizes.find(([, n]) => n === largest)!;
  for (const bundle of [bundleArchive(good), bundleFolder(good)]) {
    expect(readBundle(bundle).size).toBe(good.size);
    expect(() => readBundle(bundle, { fileBytes: largest - 1, bundleBytes: Number.MAX_SAFE_INTEGER })).toThrow(
      new BundleError(`${name} states ${largest} bytes, more than the ${largest - 1} this suite reads of one file of a bundle`),
    );
    expect(() => readBundle(bundle, { fileBytes: largest, bundleBytes: largest + 1024 })).toThrow(
      new BundleError(`its files state more than the ${largest + 1024} bytes this suite reads of a bundle`),
    );
  }
});

// A run whose answers add up to more than verify reads still writes its bundle, and says so at once, at run time.
test('a bundle larger than verify and a replay read is written with a word that says so', async () => {
  const dir = scratch();
  const recording = recordInProcess(undefined);
  const facts: RunFacts = {
    target: { name: 'reference', baseUrl: 'http://reference.invalid', embedded: false },
    startedAt: recording.startedAt,
    requests: { count: 0, methods: [] },
    deviations: [],
  };
  stageEvidence(
    dir,
    bundleRecording(recording, { ...REFERENCE_INPUT, baseUrl: 'http://reference.invalid' }, createSecrets(REFERENCE_INPUT), facts),
    undefined,
    false,
  );
  const report = JSON.parse(good.get('reports/conformance.json')!.toString('utf8'));
  const small = { fileBytes: 1024, bundleBytes: 2048 };
  const bundle = await writeEvidenceBundle(report, { reportDir: dir, evidenceDir: path.join(dir, 'bundle'), reports: [] }, '2026-01-01', small);
  expect(bundle.written).toBe(path.join(dir, 'bundle'));
  expect(bundle.tooLarge).toMatch(/^it holds \d+ bytes of exchanges, more than verify and a replay read \(1024 a file, 2048 in all\)/);
});
