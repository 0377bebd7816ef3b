import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LOCK_FILE, releaseReportFolder, takeReportFolder } from '../../harness/config/report-folder.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

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

test('false pass: a lock with a process id alone, which no run writes where the system tells when processes start (a planted 1), names no run and is taken over', () => {
  for (const pid of [1, other.pid!]) {
    writeFileSync(lock(), `${pid}\n`);
    takeReportFolder(dir);
    expect(readFileSync(lock(), 'utf8')).toBe(`${process.pid} ${startOf(process.pid)}\n`);
    releaseReportFolder(dir);
  }
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
      // The killed run listed what it writes, as a run does when it takes the folder.
      writeFileSync(path.join(dir, '.conformance-run.json'), JSON.stringify({ written: ['conformance.json'] }));
      writeFileSync(path.join(dir, 'conformance.json'), '{"verdict":"pass"}');
      takeReportFolder(dir);
      expect(existsSync(path.join(dir, 'conformance.json'))).toBe(false);
      expect(readFileSync(lock(), 'utf8').split(' ')[0]).toBe(String(process.pid));
      resolve();
    }),
  );
});

// A lock is a small file this suite wrote. Anything else in its place is named, never read or written
// through: a FIFO would be waited on for ever, a link would have the lock written where it points.
test('a lock that is a folder, or a link, is refused in one line naming it; the file a link points to is left as it was', () => {
  mkdirSync(lock());
  expect(() => takeReportFolder(dir)).toThrow(`${lock()} is not a file, so no run can hold the folder`);
  rmSync(lock(), { recursive: true });
  const elsewhere = path.join(dir, 'elsewhere.txt');
  writeFileSync(elsewhere, 'kept\n');
  symlinkSync(elsewhere, lock());
  expect(() => takeReportFolder(dir)).toThrow(`${lock()} is not a file, so no run can hold the folder`);
  expect(readFileSync(elsewhere, 'utf8')).toBe('kept\n');
});

test('a lock that is a FIFO is refused at once, not waited on', () => {
  execFileSync('mkfifo', [lock()]);
  const script = `try { require('./harness/config/report-folder.ts').takeReportFolder(${JSON.stringify(dir)}) } catch (e) { console.error(e.message); process.exit(2) }`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: PROJECT_ROOT, timeout: 10_000, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(2);
  expect(run.stderr).toContain(`${lock()} is not a file`);
});

// A run removes only what a run of this suite wrote there, by that run's own list; never a file by its name alone.
test("a folder of the user's keeps what no run wrote: targets/, blob-report/, test-results/, notes beside the reports", () => {
  for (const name of ['targets/mine', 'blob-report', 'test-results']) mkdirSync(path.join(dir, name), { recursive: true });
  writeFileSync(path.join(dir, 'targets', 'mine', 'keep.txt'), 'mine');
  writeFileSync(path.join(dir, 'notes.md'), 'mine');
  takeReportFolder(dir);
  for (const name of ['targets/mine/keep.txt', 'blob-report', 'test-results', 'notes.md']) expect(existsSync(path.join(dir, name)), name).toBe(true);
});

test('the next run removes what the last one listed as written, and nothing it did not list', () => {
  takeReportFolder(dir, ['conformance.json', 'targets/staging']);
  mkdirSync(path.join(dir, 'targets', 'staging'), { recursive: true });
  writeFileSync(path.join(dir, 'targets', 'staging', 'conformance.json'), '{}');
  writeFileSync(path.join(dir, 'conformance.json'), '{}');
  mkdirSync(path.join(dir, 'targets', 'mine'), { recursive: true });
  releaseReportFolder(dir);
  takeReportFolder(dir);
  expect(existsSync(path.join(dir, 'targets', 'staging'))).toBe(false);
  expect(existsSync(path.join(dir, 'conformance.json'))).toBe(false);
  expect(existsSync(path.join(dir, 'targets', 'mine'))).toBe(true);
});

test('a list of what was written that names a place outside the folder, or no run output, removes nothing of it', () => {
  const outside = mkdtempSync(path.join(os.tmpdir(), 'conformance-outside-'));
  try {
    writeFileSync(path.join(outside, 'precious.txt'), 'mine');
    writeFileSync(path.join(dir, 'notes.md'), 'mine');
    writeFileSync(path.join(dir, '.conformance-run.json'), JSON.stringify({ written: [outside, '../x', 'targets/../../y', 'notes.md', 'targets'] }));
    takeReportFolder(dir);
    expect(existsSync(path.join(outside, 'precious.txt'))).toBe(true);
    expect(existsSync(path.join(dir, 'notes.md'))).toBe(true);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});
