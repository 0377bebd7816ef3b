import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// `npm ci` refuses a lock that lacks any dependency, optional ones for other platforms included. A
// registry that serves only some platforms' binaries makes `npm install` leave the others out, and the
// clean clone CI starts from then installs nothing. Checked here, where it costs a file read.

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The lock's entry a package at `from` gets for `name`: its own node_modules first, then each parent's. */
function resolves(packages: Record<string, LockEntry>, from: string, name: string): boolean {
  for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/node_modules/')))) {
    if (packages[at ? `${at}/node_modules/${name}` : `node_modules/${name}`]) return true;
    if (!at) return false;
  }
}

test('package-lock.json holds every dependency of every locked package, for every platform', () => {
  const lock = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const missing = Object.entries(lock.packages).flatMap(([at, entry]) =>
    Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...(at ? {} : entry.devDependencies) })
      .filter((name) => !resolves(lock.packages, at, name))
      .map((name) => `${at || '(root)'} needs ${name}`),
  );
  expect(missing, 'add the entries (os/cpu/libc as the package declares) so that `npm ci` accepts the lock').toEqual([]);
});
