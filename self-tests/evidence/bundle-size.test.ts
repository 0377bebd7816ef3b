import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { Header } from 'tar';
import { BundleError } from '../../harness/evidence/bundle-error.ts';
import { BUNDLE_LIMITS, readBundle } from '../../harness/evidence/bundle-reader.ts';
import { ConfigError } from '../../harness/files/config-error.ts';
import { loadRun } from '../../harness/run/run-targets.ts';
import { verifyCommand } from '../support/bundles.ts';
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
