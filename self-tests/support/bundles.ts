import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extract } from 'tar';
import { PROJECT_ROOT } from './run-suite.ts';

const COMMAND = path.join(PROJECT_ROOT, 'bin', 'admin-api-conformance.js');

/** Runs `admin-api-conformance verify` as a user would. */
export async function verifyCommand(args: string[]): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [COMMAND, 'verify', ...args], { cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { exitCode, stdout, stderr };
}

/** A bundle archive unpacked into a folder of its own. */
export async function unpack(archive: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-bundle-copy-'));
  await extract({ file: archive, cwd: dir });
  return dir;
}

/** A copy of an unpacked bundle, with one file changed by `edit`. */
export function tamperedCopy(folder: string, file: string, edit: (text: string) => string): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'conformance-bundle-tampered-'));
  cpSync(folder, copy, { recursive: true });
  const target = path.join(copy, file);
  mkdirSync(path.dirname(target), { recursive: true });
  const before = readFileSync(target, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit left ${file} as it was`);
  writeFileSync(target, after);
  return copy;
}
