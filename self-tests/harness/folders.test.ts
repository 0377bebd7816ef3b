import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { makeFolder } from '../../harness/files/folders.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// Every folder a run makes (reports, evidence, the schema cache) is made by makeFolder. Node's recursive
// mkdir loops for ever below /proc, where making a folder fails with ENOENT although its parent is there.

/** makeFolder(dir) in a process of its own, which a loop could not stop: how it ended, within 10 s. */
function makeFolderApart(dir: string): { status: number | null; stderr: string } {
  const script = `try { require('./harness/files/folders.ts').makeFolder(${JSON.stringify(dir)}) } catch (e) { console.error(e.code); process.exit(1) }`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: PROJECT_ROOT, timeout: 10_000, encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

test('a folder and its missing parents are made', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'conformance-make-'));
  try {
    makeFolder(path.join(root, 'a', 'b', 'c'));
    makeFolder(path.join(root, 'a', 'b', 'c'));
    expect(existsSync(path.join(root, 'a', 'b', 'c'))).toBe(true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a folder that cannot be made below /proc, or through a link into it, is an error at once, not a loop', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'conformance-make-'));
  try {
    symlinkSync('/proc', path.join(root, 'link'));
    for (const dir of ['/proc/conformance-no-such/x', path.join(root, 'link', 'conformance-no-such')]) {
      expect(makeFolderApart(dir)).toEqual({ status: 1, stderr: 'ENOENT\n' });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
