import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LOCK_FILE, releaseReportFolder, RUN_OUTPUT, takeReportFolder, WRITTEN_FILE } from '../../harness/config/report-folder.ts';
import { runConformance } from '../../run/engine.ts';
import { PROJECT_ROOT, referenceTargetEnv } from '../support/run-suite.ts';

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
test('a lock that is a folder holding anything, or a link, is refused in one line naming it; the file a link points to is left as it was', () => {
  mkdirSync(lock());
  writeFileSync(path.join(lock(), 'kept'), 'kept\n');
  expect(() => takeReportFolder(dir)).toThrow(`${lock()} is not a file, so no run can hold the folder`);
  expect(readFileSync(path.join(lock(), 'kept'), 'utf8')).toBe('kept\n');
  rmSync(lock(), { recursive: true });
  const elsewhere = path.join(dir, 'elsewhere.txt');
  writeFileSync(elsewhere, 'kept\n');
  symlinkSync(elsewhere, lock());
  expect(() => takeReportFolder(dir)).toThrow(`${lock()} is not a file, so no run can hold the folder`);
  expect(readFileSync(elsewhere, 'utf8')).toBe('kept\n');
});

// A folder planted where the lock goes (by an earlier step, a shared workspace) names no run: a run that refused
// would leave whatever else was planted standing; an empty one holds nothing to lose, and is taken over.
test("false pass: an empty folder in the lock's place names no run and is taken over", () => {
  mkdirSync(lock());
  const release = takeReportFolder(dir);
  expect(statSync(lock()).isFile()).toBe(true);
  release();
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

// A report folder may be one the user keeps other files in: a run writes its names (index.html, junit.xml,
// summary.md, ...) only where the last run of this suite wrote them, by its own list; a site's `docs/` or `public/`
// given as the report folder used to lose its index.html without a word.
test("user's files: a file of a name a run writes that no run listed as written is refused in one line naming it, and nothing is written, not even the lock", () => {
  for (const name of ['index.html', 'junit.xml', 'summary.md', 'conformance.json', 'evidence.tar.gz']) {
    const site = mkdtempSync(path.join(os.tmpdir(), 'conformance-site-'));
    try {
      writeFileSync(path.join(site, name), 'mine\n');
      writeFileSync(path.join(site, 'about.html'), 'mine\n');
      expect(() => takeReportFolder(site)).toThrow(
        `CONFORMANCE_REPORT_DIR ${site} holds ${name}, which no run of this suite wrote there (${WRITTEN_FILE} does not list it), and a run would write over it: give an empty folder, or one only this suite's runs write to`,
      );
      expect(readdirSync(site).sort()).toEqual(['about.html', name].sort());
      expect(readFileSync(path.join(site, name), 'utf8')).toBe('mine\n');
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  }
  // A target's folder below targets/ is one of them: a folder of the user's of that name is never cleared.
  mkdirSync(path.join(dir, 'targets', 'staging'), { recursive: true });
  expect(() => takeReportFolder(dir, [...RUN_OUTPUT, 'targets/staging'])).toThrow(`holds targets/staging, which no run of this suite wrote there`);
});

test("user's files: a run into a folder that holds the user's index.html ends with exit code 2 and one line, and leaves the folder as it was", async () => {
  writeFileSync(path.join(dir, 'index.html'), '<h1>our site</h1>\n');
  let stderr = '';
  const result = await runConformance({
    env: { ...referenceTargetEnv('http://127.0.0.1:9'), CONFORMANCE_REPORT_DIR: dir },
    cwd: dir,
    output: { out: () => undefined, err: (text) => void (stderr += text) },
  });
  expect(result.exitCode).toBe(2);
  expect(stderr).toBe(
    `conformance: configuration error: CONFORMANCE_REPORT_DIR ${dir} holds index.html, which no run of this suite wrote there (${WRITTEN_FILE} does not list it), and a run would write over it: give an empty folder, or one only this suite's runs write to\n`,
  );
  expect(readdirSync(dir)).toEqual(['index.html']);
  expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toBe('<h1>our site</h1>\n');
});

test("user's files: a folder the last run listed as written is taken, and what it wrote replaced", async () => {
  const env = { ...referenceTargetEnv('http://127.0.0.1:9'), CONFORMANCE_REPORT_DIR: dir, CONFORMANCE_TIMEOUT_MS: '1000' };
  for (let i = 0; i < 2; i += 1) {
    const result = await runConformance({ env, cwd: dir });
    expect(result.exitCode).toBe(3);
  }
  expect(readdirSync(dir)).toContain('index.html');
});

// The root, the system's folders and a home folder hold what is not the suite's: a run refuses them before it writes
// anything there, its lock included.
test("user's files: the root of the file system, a folder of the system's and a home folder are refused as report folders, as is a link to one", () => {
  symlinkSync('/', path.join(dir, 'root'));
  for (const [folder, what] of [
    ['/', 'the root of a file system'],
    ['/usr', "a folder of the system's"],
    ['/tmp', "a folder of the system's"],
    [os.homedir(), 'a home folder'],
    [path.join(dir, 'root'), 'the root of a file system'],
  ]) {
    expect(() => takeReportFolder(folder), folder).toThrow(
      `CONFORMANCE_REPORT_DIR ${folder} is ${what}, where a run would write its reports among files that are not its own; give a folder of its own, such as ./conformance-report`,
    );
  }
  expect(existsSync(path.join('/', LOCK_FILE))).toBe(false);
  expect(existsSync(path.join('/', WRITTEN_FILE))).toBe(false);
});

test("user's files: a run refused for its configuration takes no system folder either: nothing is written in the root", async () => {
  let stderr = '';
  const result = await runConformance({
    env: { CONFORMANCE_REPORT_DIR: '/', CONFORMANCE_BASE_URL: '', CONFORMANCE_ADMIN_TOKEN: '' },
    cwd: dir,
    output: { out: () => undefined, err: (text) => void (stderr += text) },
  });
  expect(result.exitCode).toBe(2);
  expect(stderr).toBe(
    'conformance: configuration error: CONFORMANCE_BASE_URL is set but empty in the environment: give it a value or unset it (a CI secret that is missing arrives empty)\n',
  );
  for (const name of [...RUN_OUTPUT, LOCK_FILE, WRITTEN_FILE]) expect(existsSync(path.join('/', name)), name).toBe(false);
});

// Only a shell expands `~`, and only unquoted: in .env, a CI variable or quotes it reaches the suite as it is, and
// used to make a folder named `~` in the current folder.
test("user's files: a report or evidence folder named by a ~ that no shell expanded is refused in one line, and no folder named ~ is made", async () => {
  for (const [variable, named] of [
    ['CONFORMANCE_REPORT_DIR', '~'],
    ['CONFORMANCE_REPORT_DIR', '~/reports'],
    ['CONFORMANCE_EVIDENCE_DIR', '~/evidence'],
  ]) {
    let stderr = '';
    const result = await runConformance({
      env: { ...referenceTargetEnv('http://127.0.0.1:9'), CONFORMANCE_REPORT_DIR: path.join(dir, 'out'), [variable]: named },
      cwd: dir,
      output: { out: () => undefined, err: (text) => void (stderr += text) },
    });
    expect(result.exitCode).toBe(2);
    expect(stderr).toBe(
      `conformance: configuration error: ${variable} is ${named}: the shell did not expand ~ (none does within quotes, in .env or in a CI service's variables); give the folder's path, such as $HOME/reports\n`,
    );
    expect(existsSync(path.join(dir, '~'))).toBe(false);
  }
});

test('a process holding more folders at once than Node allows listeners (the exporter, a script) holds them without a warning, and lets each go', async () => {
  const warnings: Error[] = [];
  const warned = (warning: Error) => void warnings.push(warning);
  process.on('warning', warned);
  const dirs = Array.from({ length: 24 }, () => mkdtempSync(path.join(os.tmpdir(), 'conformance-folders-')));
  try {
    const releases = dirs.map((d) => takeReportFolder(d));
    // Node emits its warning on the next turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((w) => w.name)).toEqual([]);
    for (const release of releases) release();
    expect(dirs.filter((d) => existsSync(path.join(d, LOCK_FILE)))).toEqual([]);
  } finally {
    process.off('warning', warned);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
