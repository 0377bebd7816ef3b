import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { canary, contentsUnder, leaks } from '../support/leaks.ts';
import { commandLine } from '../support/command-line.ts';
import { COMMAND, commandEnv, noteRun } from '../support/run-suite.ts';

// A token typed on the command line, as an option of its own or as a stray word, is refused before Playwright sees
// it, by its name alone: Playwright would quote the whole argument, and a configuration error still writes a report
// that CI uploads. Every other option of Playwright's still reaches it.

/** The options `playwright test --help` lists, as the command's own list must know them. */
function playwrightOptions(): string[] {
  const help = spawnSync(process.execPath, [require.resolve('@playwright/test/cli'), 'test', '--help'], { encoding: 'utf8' }).stdout;
  return [...help.matchAll(/^\s+(?:(-\w), )?(--[\w-]+)/gm)].flatMap((m) => (m[1] ? [m[1], m[2]] : [m[2]]));
}

test("the command knows every option of Playwright's test command, and only those", () => {
  const source = readFileSync(COMMAND, 'utf8');
  const listed = source.slice(source.indexOf('const PLAYWRIGHT_OPTIONS'), source.indexOf("/** An option's name as the refusal"));
  const known = [...listed.matchAll(/'(--?[\w-]+)'/g)].map((m) => m[1]);
  // -x stands in Playwright's help as a line of its own, without a long form.
  expect(new Set(known)).toEqual(new Set([...playwrightOptions(), '-x']));
});

/** The command run in a child process (the refusal's one run as a user meets it), or its script in this process. */
async function commandRun(args: string[], cwd: string, inProcess: boolean): Promise<{ status: number | null; stdout: string; stderr: string }> {
  if (inProcess) {
    const run = await commandLine(args, {}, cwd);
    return { status: run.exitCode ?? null, stdout: run.stdout, stderr: run.stderr };
  }
  const started = Date.now();
  const run = spawnSync(process.execPath, [COMMAND, ...args], { cwd, env: commandEnv({}), encoding: 'utf8', timeout: 30_000 });
  noteRun(started, run.status, run.stdout);
  return run;
}

for (const [kind, args, inProcess] of [
  ['an option of no one', ['--base-url', 'http://127.0.0.1:9', '--admin-token=SECRET'], false],
  ['a stray word after the base URL', ['http://127.0.0.1:9', 'SECRET'], true],
] as const) {
  test(`a token typed on the command line as ${kind} is refused in one line that never quotes it, exit code 2, nothing sent, no report holding it`, async () => {
    const token = canary('the typed token', 'typed-tok3n:with/odd+chars');
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'conformance-typed-token-'));
    const run = await commandRun(
      args.map((a) => a.replace('SECRET', token.value)),
      cwd,
      inProcess,
    );
    expect(run.status, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        kind.startsWith('an option')
          ? /^conformance: configuration error: unknown option --admin-token \(its value is not shown\): tokens go in/
          : /^conformance: configuration error: a stray argument \(not shown/,
      ),
    ]);
    const reportDir = path.join(cwd, 'conformance-report');
    expect(leaks([['stdout', run.stdout], ['stderr', run.stderr], ...contentsUnder(reportDir)], [token])).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(reportDir, 'conformance.json'), 'utf8')).verdict).toBe('error');
  });
}
