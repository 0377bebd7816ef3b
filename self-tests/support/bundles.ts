import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extract } from 'tar';
import { verify } from '../../run/commands.ts';

/** Runs `admin-api-conformance verify` as the command runs it, in this process. */
export async function verifyCommand(args: string[]): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  let [stdout, stderr] = ['', ''];
  const exitCode = await verify(args, { output: { out: (t) => void (stdout += t), err: (t) => void (stderr += t) }, cwd: os.tmpdir() });
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
