import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXCHANGES, MANIFEST } from '../../harness/evidence/bundle.ts';
import { ConfigError } from '../../harness/files/config-error.ts';
import { loadRun } from '../../run/prepare.ts';
import { bundleArchive, bundleFolder, referenceBundle, removeScratch, scratch, withFile } from '../support/in-process-bundle.ts';

// Every way a bundle given to CONFORMANCE_REPLAY can be unreadable is a configuration error: one line that
// names the bundle and what is wrong with it, read as the Playwright config reads it, before any folder is taken.

const good = referenceBundle();
const without = (name: string) => new Map([...good].filter(([n]) => n !== name));
test.afterAll(removeScratch);

/** Each unreadable bundle, made in a scratch folder, and what the line says is wrong with it. */
const UNREADABLE: { title: string; bundle: () => string; reason: string }[] = [
  { title: 'nothing at the path', bundle: () => path.join(scratch(), 'evidence.tar.gz'), reason: 'there is no file or folder there' },
  { title: 'a folder without manifest.json', bundle: () => bundleFolder(without(MANIFEST)), reason: 'manifest.json in the bundle is missing' },
  { title: 'an empty folder', bundle: scratch, reason: 'manifest.json in the bundle is missing' },
  { title: '/dev/null', bundle: () => '/dev/null', reason: 'it is a device, neither an evidence.tar.gz nor a bundle folder' },
  {
    title: 'a named pipe, which must not be waited on',
    bundle: () => {
      const fifo = path.join(scratch(), 'evidence.tar.gz');
      execFileSync('mkfifo', [fifo]);
      return fifo;
    },
    reason: 'it is a named pipe, neither an evidence.tar.gz nor a bundle folder',
  },
  {
    title: 'a folder holding two folder links that loop, which must not be walked for ever',
    bundle: () => {
      const dir = bundleFolder(good);
      symlinkSync('..', path.join(dir, 'reports', 'up'));
      symlinkSync(dir, path.join(dir, 'again'));
      return dir;
    },
    reason: 'again is a link; a bundle holds files and folders only',
  },
  {
    title: 'an archive cut short',
    bundle: () => {
      const file = bundleArchive(good);
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, bytes.length >> 1));
      return file;
    },
    reason: 'it is no whole tar.gz archive (zlib: unexpected end of file)',
  },
  {
    title: 'a file of other bytes',
    bundle: () => {
      const file = path.join(scratch(), 'evidence.tar.gz');
      writeFileSync(file, '{"not": "an archive"}\n'.repeat(100));
      return file;
    },
    reason: 'it is no whole tar.gz archive (TAR_ENTRY_INVALID: checksum failure)',
  },
  {
    title: 'an archive that unpacks to a thousand times its size, as a bomb does',
    bundle: () => {
      const dir = scratch();
      writeFileSync(path.join(dir, EXCHANGES), Buffer.alloc(20 << 20));
      execFileSync('tar', ['czf', 'evidence.tar.gz', EXCHANGES], { cwd: dir });
      return path.join(dir, 'evidence.tar.gz');
    },
    reason:
      'it unpacks to more than 1,000 times its own size, as an archive bomb does; the bundles the suite writes hold JSON, HTML and SVG, which never pack that tightly',
  },
  { title: 'an archive without manifest.json', bundle: () => bundleArchive(without(MANIFEST)), reason: 'manifest.json in the bundle is missing' },
  {
    title: 'a manifest.json that is not JSON',
    bundle: () => bundleFolder(new Map([...good, [MANIFEST, Buffer.from('{nope')]])),
    reason: 'manifest.json in the bundle is not JSON',
  },
  {
    title: 'a manifest.json that does not match its schema',
    bundle: () => bundleFolder(new Map([...good, [MANIFEST, Buffer.from('{}')]])),
    reason:
      'manifest.json in the bundle does not match its schema: the top level lacks "bundleVersion"; the top level lacks "suite"; the top level lacks "document"',
  },
  {
    title: 'an exchanges.json that is not JSON, its digest changed to match',
    bundle: () => bundleFolder(withFile(good, EXCHANGES, '{"a":'.repeat(10))),
    reason: 'exchanges.json in the bundle is not JSON',
  },
  {
    title: 'an exchanges.json that does not match its schema, its digest changed to match',
    bundle: () => bundleFolder(withFile(good, EXCHANGES, '[]')),
    reason: 'exchanges.json in the bundle does not match its schema: the top level must be of type object',
  },
];

for (const { title, bundle, reason } of UNREADABLE) {
  test(`a replay of ${title} is a configuration error that names the bundle and what is wrong`, () => {
    const given = bundle();
    let thrown: unknown;
    try {
      loadRun({ CONFORMANCE_REPLAY: given, CONFORMANCE_REPORT_DIR: path.join(scratch(), 'report') }, os.tmpdir());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(
      `CONFORMANCE_REPLAY: ${given} cannot be replayed: ${reason}; give the evidence.tar.gz a run wrote, or the folder it unpacks to`,
    );
  });
}

test('the reference bundle made in process is replayed: the helper makes what a run makes', () => {
  const run = loadRun({ CONFORMANCE_REPLAY: bundleArchive(good), CONFORMANCE_REPORT_DIR: path.join(scratch(), 'report') }, os.tmpdir());
  expect(run.targets[0]).toMatchObject({ name: 'reference', baseUrl: 'http://reference.invalid' });
});
