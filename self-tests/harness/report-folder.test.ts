import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LOCK_FILE, releaseReportFolder, takeReportFolder } from '../../harness/report-folder.ts';

// A report folder belongs to one run at a time: its lock names the holder's process, and its start time,
// so that a process that was given a dead run's id later is not taken for that run.

const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
};

let other: ChildProcess;
let dir: string;
test.beforeAll(() => {
  other = spawn('sleep', ['60'], { stdio: 'ignore' });
});
test.afterAll(() => other.kill('SIGKILL'));
test.beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-folder-'));
});
test.afterEach(() => {
  releaseReportFolder(dir);
  rmSync(dir, { recursive: true, force: true });
});

const lock = () => path.join(dir, LOCK_FILE);
const refusal = (pid: number) => `another run (process ${pid}) is writing to ${dir}`;

test('a folder is taken with a lock that names this process and its start, and let go', () => {
  takeReportFolder(dir);
  expect(readFileSync(lock(), 'utf8')).toBe(`${process.pid} ${startOf(process.pid)}\n`);
  releaseReportFolder(dir);
  expect(existsSync(lock())).toBe(false);
});

test('a folder whose lock names a live process, with its start, is refused', () => {
  writeFileSync(lock(), `${other.pid} ${startOf(other.pid!)}\n`);
  expect(() => takeReportFolder(dir)).toThrow(refusal(other.pid!));
});

test('a lock with a process id alone, as earlier runs wrote it, still holds the folder while that process lives', () => {
  writeFileSync(lock(), `${other.pid}\n`);
  expect(() => takeReportFolder(dir)).toThrow(refusal(other.pid!));
});

test("a lock whose process id a later process was given (another start) is a dead run's, and taken over", () => {
  writeFileSync(lock(), `${other.pid} ${Number(startOf(other.pid!)) - 1}\n`);
  takeReportFolder(dir);
  expect(readFileSync(lock(), 'utf8')).toBe(`${process.pid} ${startOf(process.pid)}\n`);
});

test('a lock whose process is gone is taken over, and what that run left is removed', () => {
  const gone = spawn('true');
  return new Promise<void>((resolve) =>
    gone.on('exit', () => {
      writeFileSync(lock(), `${gone.pid} 1\n`);
      writeFileSync(path.join(dir, 'conformance.json'), '{"verdict":"pass"}');
      takeReportFolder(dir);
      expect(existsSync(path.join(dir, 'conformance.json'))).toBe(false);
      expect(readFileSync(lock(), 'utf8').split(' ')[0]).toBe(String(process.pid));
      resolve();
    }),
  );
});
