import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runCommand, runSuite, runSuiteProcess } from '../support/run-suite.ts';

// What the command does with its own arguments: a word that is no command, or a merge with nothing to
// merge, is one line and exit code 2 before Playwright starts, never a run of the suite.

test('a word that is no command is refused in one line that names the command meant, exit code 2, and nothing runs', async () => {
  const cases: [string[], string][] = [
    [['verfiy', 'evidence.tar.gz'], 'unknown command "verfiy"; did you mean "verify"?'],
    [['mrege', 'shards'], 'unknown command "mrege"; did you mean "merge"?'],
    [['clauses'], 'unknown command "clauses": the commands are run, merge, verify, diff, document, reference and help'],
  ];
  for (const [args, line] of cases) {
    const run = await runCommand(args);
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(line)]);
    expect(run.stdout).toBe('');
  }
});

test("an option's value is no command: --grep @MUST before -- reaches Playwright, as npm passes it", async () => {
  // A worker count Playwright refuses stops the run before any request; the point is who read "@MUST".
  const run = await runCommand(['--grep', '@MUST', '--workers=0']);
  expect(run.stderr).not.toContain('unknown command');
  expect(run.stderr).toContain('Workers must be a positive number');
});

test("merge refuses in one line, exit code 2, a folder that is missing, a file, or holds no shard's report folder", async () => {
  const cases: [string, string][] = [
    ['/nonexistent-shard-reports', 'merge: there is no folder /nonexistent-shard-reports'],
    [__filename, `merge: ${__filename} is a file`],
    [__dirname, `merge: ${__dirname} holds no shard's report folder (conformance.json)`],
  ];
  for (const [folder, line] of cases) {
    const run = await runCommand(['merge', folder]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(line)]);
  }
});

// Playwright makes its reporters before global setup: a run that ended before the suite's reporter was made
// sent nothing, and what ended it is the command line Playwright refused.
test('options Playwright refuses are a configuration error: its message in one line, no stack, exit code 2', async () => {
  const cases: [string, string][] = [
    ['--workers=0', 'Workers must be a positive number, received 0.'],
    ['--reporter=/nonexistent-reporter.js', "Cannot find module '/nonexistent-reporter.js'"],
  ];
  const runs = await Promise.all(cases.map(([option]) => runCommand(['--', option])));
  for (const [i, run] of runs.entries()) {
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0].startsWith(`conformance: configuration error: Playwright refused to start: ${cases[i][1]}`), lines[0]).toBe(true);
  }
});

// A fault of the suite's own, raised while Playwright loads its configuration, is neither Playwright refusing the
// command line nor a mistake in the settings. It is provoked here from outside: a module Node loads first makes
// reading the suite's list of variables throw, in Playwright's runner only.
test("an error of the suite's own before it starts is named as such, where it was raised, no verdict, exit code 3", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-own-fault-'));
  try {
    const fault = path.join(dir, 'fault.cjs');
    writeFileSync(
      fault,
      `if (process.argv.includes('test')) {
  const fs = require('node:fs');
  const read = fs.readFileSync;
  fs.readFileSync = function (file, ...rest) {
    if (String(file).endsWith('variables.json')) throw new TypeError('a fault planted by the test');
    return read.call(this, file, ...rest);
  };
}
`,
    );
    const run = await runCommand([], 60_000, { CONFORMANCE_EMBEDDED: 'true', NODE_OPTIONS: `--require ${fault}` });
    expect(run.exitCode, run.stdout + run.stderr).toBe(3);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^conformance: no verdict: the suite stopped on an error of its own before it started \(a fault planted by the test; at harness\/config\/sources\.ts:\d+\); the settings are not at fault: report it with this line$/,
      ),
    ]);
    expect(run.stderr).not.toContain('Playwright');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Playwright's UI mode serves until someone closes it, and its runs give no verdict: as a gate it would never end.
test("Playwright's UI mode is refused in one line, exit code 2, rather than a run that never ends", async () => {
  for (const option of ['--ui', '--ui-port=0', '--ui-host=127.0.0.1']) {
    const run = await runCommand(['--', option], 20_000);
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(`${option.split('=')[0]} starts Playwright's UI mode`)]);
  }
});

// Neither is a run: a gate whose command line holds one by mistake must not go green.
test("Playwright's help after -- is shown as Playwright gives it, and is no verdict, exit code 3", async () => {
  const run = await runCommand(['--', '--help']);
  expect(run.exitCode, run.stdout + run.stderr).toBe(3);
  expect(run.stdout).toContain('Usage: npx playwright test [options]');
  expect(run.stderr).toBe("conformance: no verdict: -- --help shows Playwright's options and runs nothing\n");
  expect(run.report).toBeUndefined();
});

test('-- --list lists the tests a filter selects, is no verdict, exit code 3, and leaves the report folder as it was', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-list-'));
  try {
    writeFileSync(path.join(dir, 'conformance.json'), '{"verdict":"pass"}\n');
    const run = await runSuite({ CONFORMANCE_REPORT_DIR: dir }, ['--list', '--grep', '@INFO'], 30_000);
    expect(run.exitCode, run.stdout + run.stderr).toBe(3);
    expect(run.stderr).toBe('conformance: no verdict: --list lists the tests a run would replay and judges nothing\n');
    expect(run.stdout).toContain('[projects.observe.version]');
    expect(run.stdout).toContain('Total: 9 tests in 1 file');
    expect(readFileSync(path.join(dir, 'conformance.json'), 'utf8')).toBe('{"verdict":"pass"}\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A report published after a failed step (a badge, an artifact) must not show an earlier run's verdict.
test('a run refused before the suite read its configuration leaves no earlier verdict in the report folder', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-refused-'));
  try {
    for (const [options, line] of [
      [['--bogus-option'], 'unknown option --bogus-option (its value is not shown)'],
      [['--workers=0'], 'Playwright refused to start: Workers must be a positive number'],
      [['--ui'], "--ui starts Playwright's UI mode"],
      [['-c', 'other.config.ts'], '-c names another Playwright configuration'],
      [['--config=other.config.ts'], '--config names another Playwright configuration'],
    ] as const) {
      writeFileSync(path.join(dir, 'conformance.json'), '{"verdict":"pass"}\n');
      const tmp = mkdtempSync(path.join(os.tmpdir(), 'conformance-refused-tmp-'));
      const run = await runSuite({ CONFORMANCE_REPORT_DIR: dir, TMPDIR: tmp }, [...options], 30_000);
      expect(run.exitCode, run.stdout + run.stderr).toBe(2);
      expect(run.report?.verdict).toBe('error');
      expect(run.report?.errors).toEqual([expect.stringContaining(`configuration error: ${line}`)]);
      // A run refused before its global setup leaves its workers no file.
      expect(readdirSync(tmp).filter((name) => name.startsWith('admin-api-conformance-run-'))).toEqual([]);
      rmSync(tmp, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a temporary folder that cannot be written is a configuration error in one line, exit code 2, without a stack', async () => {
  const missing = path.join(os.tmpdir(), 'conformance-no-such-tmpdir', 'tmp');
  const run = await runSuiteProcess({ TMPDIR: missing });
  expect(run.exitCode, run.stdout + run.stderr).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([
    `admin-api-conformance: the temporary folder ${missing} cannot be written (ENOENT): set TMPDIR to a writable folder`,
  ]);
});

test("merge of report folders that are not a shard's, or do not read, is no verdict, exit code 3, in one line without a stack", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-garbage-shards-'));
  try {
    for (const [text, line] of [
      ['{"verdict":"pass"}\n', `${dir}/conformance.json is not a shard's report: run each shard with CONFORMANCE_SHARD=i/n (or -- --shard=i/n)`],
      ['not JSON\n', `${dir}/conformance.json cannot be read (not JSON)`],
    ]) {
      writeFileSync(path.join(dir, 'conformance.json'), text);
      const run = await runCommand(['merge', dir]);
      expect(run.exitCode, run.stdout + run.stderr).toBe(3);
      expect(run.stderr.trim().split('\n')).toEqual([`admin-api-conformance: ${line}`]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The base URL is no secret: it may be given on the command line, as every peer takes it; tokens may not.
test('the base URL may stand first, after run, or after --base-url, and is taken as CONFORMANCE_BASE_URL', async () => {
  const token = { CONFORMANCE_ADMIN_TOKEN: 'abcdefgh12345678xyz', CONFORMANCE_TIMEOUT_MS: '2000' };
  for (const args of [['http://127.0.0.1:9'], ['run', 'http://127.0.0.1:9'], ['--base-url', 'http://127.0.0.1:9'], ['--base-url=http://127.0.0.1:9']]) {
    const run = await runCommand(args, 60_000, token);
    expect(run.exitCode, run.stdout + run.stderr).toBe(3);
    expect(run.report?.target).toMatchObject({ baseUrl: 'http://127.0.0.1:9' });
    expect(run.report?.errors[0]).toContain('no request to http://127.0.0.1:9 got an answer');
  }
  const bare = await runCommand(['--base-url']);
  expect(bare.exitCode).toBe(2);
  expect(bare.stderr.trim()).toBe("admin-api-conformance: --base-url needs the deployment's base URL, such as --base-url https://unleash.example.com");
});

// Read by node:util's parseArgs among Playwright's options: a second --shard or --base-url would otherwise reach
// Playwright, and be refused in words about Playwright's own options.
test("the suite's own options given twice or without a value are refused in one line, exit code 2, before Playwright starts", async () => {
  const cases: [string[], string][] = [
    [['--shard=1/3', '--', '--shard=2/3'], '--shard is given 2 times: give it once'],
    [['--base-url', 'http://127.0.0.1:9', '--base-url=http://127.0.0.1:8'], '--base-url is given 2 times: give it once'],
    [['--shard'], '--shard needs i/n, such as --shard=2/3'],
    [['--', '--shard='], '--shard needs i/n, such as --shard=2/3'],
  ];
  const runs = await Promise.all(cases.map(([args]) => runCommand(args)));
  for (const [i, run] of runs.entries()) {
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([`admin-api-conformance: ${cases[i][1]}`]);
    expect(run.report).toBeUndefined();
  }
});

test('help is a command: the usage, exit code 0, and nothing runs', async () => {
  const run = await runCommand(['help']);
  expect(run.exitCode).toBe(0);
  expect(run.stdout).toContain('admin-api-conformance help | --help | --version');
  expect(run.report).toBeUndefined();
});
