import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { MANIFEST, type BundleFiles } from '../../harness/evidence/bundle.ts';
import { verifyBundle } from '../../readers/verify.ts';
import { verifyCommand } from '../support/bundles.ts';
import { referenceBundle, removeScratch, resealed, scratch } from '../support/in-process-bundle.ts';
import { rawTarGz } from '../support/raw-tar.ts';

// A bundle's entries are read as hostile input: a name that leads outside the bundle once unpacked, a name
// given twice (tar keeps the last copy, other readers the first), and names every object inherits
// (`constructor`, `__proto__`) are never read past. Each is a difference or a bundle that cannot be verified
// (exit code 2), never VERIFIED.

const good = referenceBundle();
test.afterAll(removeScratch);

/** An archive of these entries, written byte by byte, in a folder of its own. */
function archive(entries: [string, Buffer][]): string {
  const file = path.join(scratch(), 'evidence.tar.gz');
  writeFileSync(file, rawTarGz(entries));
  return file;
}

const CONFORMANCE = 'reports/conformance.json';
const otherBytes = Buffer.from('{"verdict": "pass"}\n');

const UNVERIFIABLE: { title: string; entries: () => [string, Buffer][]; reason: string }[] = [
  {
    title: 'a duplicate entry: the report twice, a changed copy first',
    entries: () => [[CONFORMANCE, otherBytes], ...good],
    reason: 'reports/conformance.json is in it twice; a bundle holds each file once',
  },
  {
    title: 'a listed traversal path (../x), its digest in the manifest',
    entries: () => [...resealed(new Map([...good, ['../x', otherBytes]]))],
    reason: "../x is no path inside the bundle; a bundle's files lie in it, named plainly",
  },
  {
    title: 'a listed absolute path (/tmp/x), its digest in the manifest',
    entries: () => [...resealed(new Map([...good, ['/tmp/x', otherBytes]]))],
    reason: "/tmp/x is no path inside the bundle; a bundle's files lie in it, named plainly",
  },
  {
    title: 'a step that names its folder again (reports/./index.html)',
    entries: () => [...good, ['reports/./index.html', otherBytes]],
    reason: "reports/./index.html is no path inside the bundle; a bundle's files lie in it, named plainly",
  },
  {
    title: 'thousands of entries',
    entries: () => [...good, ...Array.from({ length: 3000 }, (_, i): [string, Buffer] => [`reports/${i}.json`, otherBytes])],
    reason: 'it has more than 256 entries; a bundle a run writes holds about ten files',
  },
];

for (const { title, entries, reason } of UNVERIFIABLE) {
  test(`hostile bundle entries (${title}) cannot be verified: one line, exit code 2, never VERIFIED`, async () => {
    const file = archive(entries());
    const run = await verifyCommand([file]);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([2, '', `admin-api-conformance verify: ${file} cannot be verified: ${reason}\n`]);
  });
}

/** The bundle with one more file, its digest listed in the manifest under `listed` (none: not listed). */
function withExtra(name: string, listed: boolean): BundleFiles {
  const files = new Map([...good, [name, otherBytes]]);
  if (listed) return resealed(files);
  return files;
}

for (const name of ['constructor', '__proto__', 'toString', 'reports/hasOwnProperty']) {
  test(`hostile bundle entries: a file named ${name}, unlisted or listed in the manifest, is a difference, never VERIFIED`, async () => {
    expect(verifyBundle(withExtra(name, false)).differences).toEqual([`${name}: not in the manifest`, `${name}: no file a run writes in its bundle`]);
    expect(verifyBundle(withExtra(name, true)).differences).toEqual([`${name}: no file a run writes in its bundle`]);
    const run = await verifyCommand([archive([...withExtra(name, false)])]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toContain(`${name}: not in the manifest`);
  });
}

test('hostile bundle entries: a manifest whose files hold prototype names as keys lists them as its own, each a difference', () => {
  const manifest = JSON.parse(good.get(MANIFEST)!.toString('utf8'));
  const text = JSON.stringify(manifest).replace('"files":{', `"files":{"__proto__":"${'0'.repeat(64)}","constructor":"${'0'.repeat(64)}",`);
  const { differences } = verifyBundle(new Map([...good, [MANIFEST, Buffer.from(text)]]));
  expect(differences).toEqual([
    '__proto__: missing, though the manifest names it',
    'constructor: missing, though the manifest names it',
    '__proto__: no file a run writes in its bundle',
    'constructor: no file a run writes in its bundle',
  ]);
});

test('hostile bundle entries: the reference bundle written byte by byte still verifies: the writer makes a bundle as a run does', async () => {
  const run = await verifyCommand([archive([...good])]);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  expect(run.stdout.trim().split('\n').at(-1)).toMatch(/^VERIFIED/);
});
