import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { WRITTEN_FILE } from '../../harness/config/report-folder.ts';
import { commandLine, type PlaywrightAnswer } from '../support/command-line.ts';
import { runCommand, runSuite } from '../support/run-suite.ts';

// What the command does with its own arguments: a word that is no command, or a merge with nothing to
// merge, is one line and exit code 2 before Playwright starts, never a run of the suite. Each way the command
// refuses is run once as a user runs it, in a child process; every other case is the command's script run in
// this process (support/command-line.ts), which starts no Playwright but says how it would have started it.

test('a word that is no command is refused in one line that names the command meant, exit code 2, and nothing runs', async () => {
  const run = await runCommand(['verfiy', 'evidence.tar.gz']);
  expect(run.exitCode, run.stdout + run.stderr).toBe(2);
  expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('unknown command "verfiy"; did you mean "verify"?')]);
  expect(run.stdout).toBe('');
});

test('a word that is no command names the nearest command, or every command when none is near, exit code 2, and Playwright is not started', async () => {
  const cases: [string[], string][] = [
    [['mrege', 'shards'], 'admin-api-conformance: unknown command "mrege"; did you mean "merge"?'],
    [
      ['clauses'],
      `admin-api-conformance: unknown command "clauses": the commands are run, merge, verify, diff, document, history, trend, reference, serve and help, and come first; Playwright's test filters go after --`,
    ],
  ];
  for (const [args, line] of cases) {
    const run = await commandLine(args);
    expect([run.exitCode, run.stderr, run.stdout]).toEqual([2, `${line}\n`, '']);
    expect(run.playwright).toEqual([]);
  }
});

test("an option's value is no command: --grep @MUST before -- reaches Playwright, as npm passes it", async () => {
  const run = await commandLine(['--grep', '@MUST']);
  expect(run.stderr).toBe('');
  expect(run.playwright).toHaveLength(1);
  const [{ args }] = run.playwright;
  expect(args.slice(args.indexOf('--grep'))).toEqual(['--grep', '@MUST']);
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

/** A report folder that holds an earlier run's pass, and a temporary folder of the run's own, to look into after. */
function earlierPass(): { dir: string; tmp: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-refused-'));
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'conformance-refused-tmp-'));
  // An earlier run's verdict, listed as that run's own (a file no run wrote is the user's, never written over).
  writeFileSync(path.join(dir, WRITTEN_FILE), '{"written":["conformance.json"]}\n');
  writeFileSync(path.join(dir, 'conformance.json'), '{"verdict":"pass"}\n');
  return { dir, tmp, remove: () => [dir, tmp].forEach((d) => rmSync(d, { recursive: true, force: true })) };
}

/** What a run refused before the suite read its configuration leaves: no earlier verdict, and no file for its workers. */
function expectRefusedReport(report: { verdict?: string; errors?: string[] } | undefined, line: string, tmp?: string): void {
  expect(report?.verdict).toBe('error');
  expect(report?.errors).toEqual([expect.stringContaining(`configuration error: ${line}`)]);
  if (tmp !== undefined) expect(readdirSync(tmp).filter((name) => name.startsWith('admin-api-conformance-run-'))).toEqual([]);
}

// Playwright makes its reporters before global setup: a run that ended before the suite's reporter was made
// sent nothing, and what ended it is the command line Playwright refused.
test('an option Playwright refuses is a configuration error: its message in one line, no stack, exit code 2, and no earlier verdict is left', async () => {
  const { dir, tmp, remove } = earlierPass();
  try {
    const run = await runSuite({ CONFORMANCE_REPORT_DIR: dir, TMPDIR: tmp }, ['--workers=0'], 30_000);
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    const line = 'Playwright refused to start: Workers must be a positive number, received 0.';
    expect(run.stderr).toBe(`conformance: configuration error: ${line}\n`);
    // A run refused before its global setup leaves its workers no file.
    expectRefusedReport(run.report, line, tmp);
  } finally {
    remove();
  }
});

/** Playwright's error output as it refuses these options (Playwright 1.5x), its own folders replaced by one made up. */
const PLAYWRIGHT_REFUSES: [string, PlaywrightAnswer, string][] = [
  [
    '--workers=0',
    {
      code: 1,
      stderr: `Error: Workers must be a positive number, received 0.
    at resolveWorkers (/somewhere/node_modules/playwright/lib/common/index.js:667:13)
    at new FullConfigInternal (/somewhere/node_modules/playwright/lib/common/index.js:555:16)
    at processTicksAndRejections (node:internal/process/task_queues:95:5)
`,
    },
    'Workers must be a positive number, received 0.',
  ],
  [
    '--reporter=/nonexistent-reporter.js',
    {
      code: 1,
      stderr: `Error: Cannot find module '/nonexistent-reporter.js'
Require stack:
- /somewhere/node_modules/playwright/lib/cli/testActions.js
- /somewhere/node_modules/@playwright/test/cli.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at resolveReporter (/somewhere/node_modules/playwright/lib/cli/testActions.js:209:18) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [
    '/somewhere/node_modules/playwright/lib/cli/testActions.js',
  ]
}
`,
    },
    "Cannot find module '/nonexistent-reporter.js'",
  ],
];

test("Playwright's refusal of any option, its stack and Node's list of modules after its message, is said in one line, exit code 2, in place of an earlier verdict", async () => {
  for (const [option, answer, message] of PLAYWRIGHT_REFUSES) {
    const { dir, remove } = earlierPass();
    try {
      const run = await commandLine(['--', option], { CONFORMANCE_REPORT_DIR: dir }, undefined, answer);
      const line = `Playwright refused to start: ${message}`;
      expect([run.exitCode, run.stderr], option).toEqual([2, `conformance: configuration error: ${line}\n`]);
      expect(run.playwright).toHaveLength(1);
      expectRefusedReport(JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8')), line);
    } finally {
      remove();
    }
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
test("every option of Playwright's UI mode, and one that names another Playwright configuration, is refused in one line, exit code 2, in place of an earlier verdict, Playwright not started", async () => {
  for (const [options, line] of [
    [['--ui'], "--ui starts Playwright's UI mode, which waits for a person and gives no verdict: run without it"],
    [['--ui-port=0'], "--ui-port starts Playwright's UI mode"],
    [['--ui-host=127.0.0.1'], "--ui-host starts Playwright's UI mode"],
    [['-c', 'other.config.ts'], '-c names another Playwright configuration'],
    [['--config=other.config.ts'], '--config names another Playwright configuration'],
  ] as const) {
    const { dir, remove } = earlierPass();
    try {
      const run = await commandLine(['--', ...options], { CONFORMANCE_REPORT_DIR: dir });
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(`conformance: configuration error: ${line}`)]);
      expect(run.playwright).toEqual([]);
      expectRefusedReport(JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8')), line);
    } finally {
      remove();
    }
  }
});

// Neither is a run: a gate whose command line holds one by mistake must not go green.
test("Playwright's help after -- is shown as Playwright gives it, and is no verdict, exit code 3", async () => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'conformance-help-'));
  const run = await commandLine(['--', '--help'], {}, cwd);
  expect(run.exitCode, run.stdout + run.stderr).toBe(3);
  // No report: the folder the report would go to by default (conformance-report) is not made.
  expect(readdirSync(cwd)).toEqual([]);
  // Playwright's test command prints its help straight to the user's terminal.
  expect(run.playwright.map((p) => [p.args, p.stdio])).toEqual([[['test', '--help'], 'inherit']]);
  expect(run.stderr).toBe("conformance: no verdict: -- --help shows Playwright's options and runs nothing\n");
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

test('a temporary folder that cannot be written is a configuration error in one line, exit code 2, without a stack', async () => {
  const missing = path.join(os.tmpdir(), 'conformance-no-such-tmpdir', 'tmp');
  const run = await commandLine([], { TMPDIR: missing });
  expect(run.exitCode, run.stdout + run.stderr).toBe(2);
  expect(run.playwright).toEqual([]);
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
test('the base URL may stand first, after run, or after --base-url, and is taken as CONFORMANCE_BASE_URL, no option of Playwright', async () => {
  for (const args of [['http://127.0.0.1:9'], ['run', 'http://127.0.0.1:9'], ['--base-url', 'http://127.0.0.1:9'], ['--base-url=http://127.0.0.1:9']]) {
    const run = await commandLine(args, { CONFORMANCE_ADMIN_TOKEN: 'abcdefgh12345678xyz' });
    expect(run.stderr).toBe('');
    expect(run.playwright).toHaveLength(1);
    expect(run.playwright[0].env.CONFORMANCE_BASE_URL, args.join(' ')).toBe('http://127.0.0.1:9');
    expect(run.playwright[0].args.join(' ')).not.toContain('127.0.0.1:9');
  }
  const bare = await commandLine(['--base-url']);
  expect(bare.exitCode).toBe(2);
  expect(bare.stderr.trim()).toBe("admin-api-conformance: --base-url needs the deployment's base URL, such as --base-url https://unleash.example.com");
});

// Read by node:util's parseArgs among Playwright's options: a second --shard or --base-url would otherwise reach
// Playwright, and be refused in words about Playwright's own options.
test("the suite's own options given twice or without a value are refused in one line, exit code 2, Playwright not started", async () => {
  const cases: [string[], string][] = [
    [['--shard=1/3', '--', '--shard=2/3'], '--shard is given 2 times: give it once'],
    [['--base-url', 'http://127.0.0.1:9', '--base-url=http://127.0.0.1:8'], '--base-url is given 2 times: give it once'],
    [['--shard'], '--shard needs i/n, such as --shard=2/3'],
    [['--', '--shard='], '--shard needs i/n, such as --shard=2/3'],
  ];
  for (const [args, line] of cases) {
    const run = await commandLine(args);
    expect([run.exitCode, run.stderr], args.join(' ')).toEqual([2, `admin-api-conformance: ${line}\n`]);
    expect(run.playwright).toEqual([]);
  }
});

test('--shard=i/n, before -- or after it, is taken as CONFORMANCE_SHARD and given to Playwright as no option', async () => {
  for (const args of [['--shard=2/3'], ['--', '--shard', '2/3']]) {
    const run = await commandLine(args);
    expect(run.playwright.map((p) => p.env.CONFORMANCE_SHARD)).toEqual(['2/3']);
    expect(run.playwright[0].args.join(' ')).not.toContain('shard');
  }
});

test('help is a command: the usage, exit code 0, and nothing runs', async () => {
  const run = await runCommand(['help']);
  expect(run.exitCode).toBe(0);
  expect(run.stdout).toContain('admin-api-conformance help | --help | --version');
  // Every file a run writes, and an interruption under its own exit codes alone, never under 3.
  expect(run.stdout).toContain('summary.md, badge.svg, junit.xml, ctrf.json, requests.json, metrics.prom, evidence.tar.gz.');
  const exit3 = /\n {2}3 {4}([\s\S]*?)\n {2}129/.exec(run.stdout)?.[1];
  expect(exit3).toBeDefined();
  expect(exit3).not.toMatch(/interrupt/i);
  expect(run.stdout).toContain('143 by SIGTERM: the reports say INTERRUPTED, no verdict');
  expect(run.report).toBeUndefined();
});

test('--confirm N is taken as CONFORMANCE_CONFIRM and given to Playwright as no option; without its number it is refused', async () => {
  for (const args of [['--confirm', '2'], ['--confirm=2'], ['http://127.0.0.1:9', '--confirm', '2']]) {
    const run = await commandLine(args, { CONFORMANCE_ADMIN_TOKEN: 'abcdefgh12345678xyz' });
    expect(
      run.playwright.map((p) => p.env.CONFORMANCE_CONFIRM),
      args.join(' '),
    ).toEqual(['2']);
    expect(run.playwright[0].args.join(' ')).not.toContain('--confirm');
  }
  const bare = await commandLine(['--confirm']);
  expect([bare.exitCode, bare.stderr]).toEqual([
    2,
    "admin-api-conformance: --confirm needs how many more times to send a failed clause's requests, such as --confirm 2\n",
  ]);
  expect(bare.playwright).toEqual([]);
});
