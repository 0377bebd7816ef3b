import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunResult } from '../../run/result.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { runCommandFile } from '../support/command-file.ts';
import { installInEmptyFolder, pack, run } from '../support/package.ts';
import { PROJECT_ROOT, referenceTargetEnv } from '../support/run-suite.ts';

// The suite as it will be used: packed, installed into an empty folder with no access to this repository, and
// run there by its command, as a user would (a pass), and by a script of the user's importing the library. What the
// installed command does before it starts anything (help, version, a misspelt command), and its build's functions
// (a configuration error among them), are run in this process from the installed files.

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let tarball: string;
let app: string;
let server: Awaited<ReturnType<typeof startReferenceServer>>;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  tarball = pack();
  app = await installInEmptyFolder(tarball);
  server = await startReferenceServer(0);
});

test.afterAll(async () => new Promise<void>((resolve) => (server ? server.server.close(() => resolve()) : resolve())));

const command = (args: string[], env: Record<string, string> = {}) => run(path.join(app, 'node_modules', '.bin', 'admin-api-conformance'), args, app, env);
const reportIn = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'conformance.json'), 'utf8'));
/** The installed package's own folder, and a file of its build loaded in this process. */
const installed = (...parts: string[]) => path.join(app, 'node_modules', 'admin-api-conformance', ...parts);
const build = <T>(file: string): T => require(installed('dist', file));

test('the tarball holds the command and the built suite only, with its type declarations: no self-tests, benchmarks, documents or TypeScript', () => {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
  expect(files.filter((f) => !/^package\/(bin\/|dist\/|README\.md$|\.env\.example$|package\.json$)/.test(f))).toEqual([]);
  expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  expect(files).toContain('package/dist/run/index.d.ts');
  expect(files).toContain('package/dist/playwright.config.js');
  // Nothing at run time needs a TypeScript loader or the repository's development dependencies.
  for (const name of ['tsx', 'typescript']) expect(existsSync(path.join(app, 'node_modules', name))).toBe(false);
});

// The installed command's file, run in this process (support/command-file.ts): it reads the build's files beside it.
test("--help lists every CONFORMANCE_ variable and the exit codes; --version is the package's; a misspelt command is named", () => {
  const bin = installed('bin', 'admin-api-conformance.js');
  const help = runCommandFile(bin, ['--help']);
  expect(help.exitCode).toBe(0);
  const { variables } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'harness', 'config', 'variables.json'), 'utf8')) as { variables: { name: string }[] };
  for (const { name } of variables) expect(help.stdout).toContain(name);
  expect(help.stdout).toMatch(/Exit codes:[\s\S]*0 .*\n[\s\S]*1 .*\n[\s\S]*2 .*\n[\s\S]*3 /);
  const version = runCommandFile(bin, ['--version']);
  expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).version);
  // The nearest command is found by the suite's build, as a clone finds it by its TypeScript.
  const typo = runCommandFile(bin, ['verfiy', 'evidence.tar.gz']);
  expect([typo.exitCode, typo.stdout, typo.stderr]).toEqual([2, '', 'admin-api-conformance: unknown command "verfiy"; did you mean "verify"?\n']);
});

test('the installed command checks the copy of the document it ships against its contracts, row by row', async () => {
  // What the command runs for `document`, from the build (bin/admin-api-conformance.js, runModule).
  const { COMMANDS } = build<typeof import('../../run/commands.ts')>('run/commands.js');
  let [stdout, stderr] = ['', ''];
  const output = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) };
  const exitCode = await COMMANDS.document([], { output, env: {}, cwd: app });
  expect(exitCode, stdout + stderr).toBe(0);
  expect(stdout).toMatch(/dist\/contracts\/spec\/admin-api\.md: its \d+ rows in \d+ tables agree with the contracts\n$/);
});

let passing: ReturnType<typeof command> | undefined;
/** The installed command given a conformant target: one run, which two tests read. */
function passingRun() {
  // A second user of the machine finds os.tmpdir()/admin-api-conformance made by the first, and may not write in
  // it. The tests run as root, whom no mode stops, so a file of that name stands for that folder.
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'conformance-shared-tmp-'));
  writeFileSync(path.join(tmp, 'admin-api-conformance'), '');
  return command([], { ...referenceTargetEnv(server.url), TMPDIR: tmp }).finally(() => rmSync(tmp, { recursive: true, force: true }));
}

test('the installed command passes a conformant target, and writes the reports where the user stands, whoever ran it before', async () => {
  const passed = await (passing ??= passingRun());
  expect(passed.exitCode, passed.output).toBe(0);
  expect(reportIn(path.join(app, 'conformance-report')).verdict).toBe('pass');
  expect(existsSync(path.join(app, 'conformance-report', 'junit.xml'))).toBe(true);
  // The built suite reads its version from the package.json one folder above dist/.
  expect(reportIn(path.join(app, 'conformance-report')).suite.version).toBe(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).version);
});

// A cron job or a hand-run on a staging host (no CI variable) whose configuration went missing must not pass.
// The installed build's engine, as the installed command's Playwright configuration calls it, in this process.
test('the installed package with no target setting at all is a configuration error, exit code 2, outside CI too, its report in a relative folder taken from the current folder', async () => {
  const { runConformance } = build<typeof import('../../run/engine.ts')>('run/index.js');
  let output = '';
  const said = { out: (text: string) => void (output += text), err: (text: string) => void (output += text) };
  const result: RunResult = await runConformance({ env: { CONFORMANCE_REPORT_DIR: 'out/unconfigured' }, cwd: app, output: said });
  expect(result.exitCode, output).toBe(2);
  expect(output).toContain(
    'conformance: configuration error: no target: set CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN (or CONFORMANCE_TARGET); the embedded reference target, a demo, runs only with CONFORMANCE_EMBEDDED=true',
  );
  expect(reportIn(path.join(app, 'out', 'unconfigured')).verdict).toBe('error');
});

test('the installed package checks the embedded reference target when asked, in CI too', async () => {
  const { runConformance } = build<typeof import('../../run/engine.ts')>('run/index.js');
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'conformance-embedded-'));
  const result: RunResult = await runConformance({ env: { CI: 'true', CONFORMANCE_EMBEDDED: 'true' }, cwd });
  expect([result.exitCode, result.verdict], result.reason).toEqual([0, 'pass']);
  expect(reportIn(path.join(cwd, 'conformance-report')).target.embedded).toBe(true);
});

/** A report as two runs of one target share it: timings and the start aside. */
const timeless = (report: Record<string, unknown>) => ({ ...report, startedAt: undefined, durationMs: undefined });

// docs/library.md's example, as a script of the user's: the installed package imported by name, as an ES module and
// as CommonJS, with no Playwright started and no child process.
test('a script that imports runConformance from the installed package, as an ES module or CommonJS, gets the conformance.json the command writes', async () => {
  const settings = (dir: string) =>
    `{ baseUrl: ${JSON.stringify(server.url)}, adminToken: process.env.ADMIN_TOKEN, signupTokens: process.env.SIGNUP_TOKENS.split(','), env: { CONFORMANCE_FORBIDDEN_TOKEN: process.env.FORBIDDEN_TOKEN, CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP: process.env.VIEWER_TOKEN }, reportDir: ${JSON.stringify(dir)} }`;
  const print = (r: string) => `console.log(JSON.stringify({ verdict: ${r}.verdict, exitCode: ${r}.exitCode, files: ${r}.targets[0].files.length }))`;
  // One script, one process: the package imported as an ES module, and required as CommonJS beside it.
  writeFileSync(
    path.join(app, 'judge.mjs'),
    [
      "import { createRequire } from 'node:module';",
      "import { runConformance } from 'admin-api-conformance';",
      "const required = createRequire(import.meta.url)('admin-api-conformance');",
      `const esm = await runConformance(${settings('out/library-esm')});`,
      `const cjs = await required.runConformance(${settings('out/library-cjs')});`,
      `${print('esm')};`,
      `${print('cjs')};`,
      '',
    ].join('\n'),
  );
  const env = referenceTargetEnv(server.url);
  const tokens = {
    ADMIN_TOKEN: env.CONFORMANCE_ADMIN_TOKEN,
    SIGNUP_TOKENS: env.CONFORMANCE_SIGNUP_TOKENS,
    FORBIDDEN_TOKEN: env.CONFORMANCE_FORBIDDEN_TOKEN,
    VIEWER_TOKEN: env.CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP,
  };
  const byCommand = await (passing ??= passingRun());
  expect(byCommand.exitCode, byCommand.output).toBe(0);
  const byScript = await run(process.execPath, ['judge.mjs'], app, tokens);
  expect(byScript.exitCode, byScript.output).toBe(0);
  expect(
    byScript.output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  ).toEqual([
    { verdict: 'pass', exitCode: 0, files: 6 },
    { verdict: 'pass', exitCode: 0, files: 6 },
  ]);
  for (const dir of ['library-esm', 'library-cjs'])
    expect(timeless(reportIn(path.join(app, 'out', dir)))).toEqual(timeless(reportIn(path.join(app, 'conformance-report'))));
  // Typed: the package names its declarations, and they declare the function.
  const types = JSON.parse(readFileSync(installed('package.json'), 'utf8')).types;
  expect(readFileSync(installed(types), 'utf8')).toContain('runConformance');
});
