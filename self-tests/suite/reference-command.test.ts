import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FAULTS, VALID_VARIANTS } from '../../reference-server/variants/index.ts';
import { reference } from '../../run/commands.ts';
import { runConformance } from '../../run/engine.ts';
import { runCommandFile } from '../support/command-file.ts';
import { COMMAND, commandEnv, noteRun } from '../support/run-suite.ts';

// `admin-api-conformance reference` serves a named fault (or valid variant) to try the suite against: the settings
// it prints point a run at it, and that run finds the fault's flaw and no other. Run in this process, stopped by its
// signal; once as the command, stopped by Ctrl+C.

/** The command's function, serving until `stop` aborts: its lines as they come, and its exit code once it ends. */
function serve(args: string[], stop: AbortController) {
  let [stdout, stderr] = ['', ''];
  const output = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) };
  const ended = reference(args, { output, signal: stop.signal });
  return { ended, stdout: () => stdout, stderr: () => stderr };
}

/** The variables of the `export NAME=value` lines it printed. */
const settingsOf = (text: string) =>
  Object.fromEntries([...text.matchAll(/^ {2}export (CONFORMANCE_[A-Z_]+)=(\S+)$/gm)].map((m) => [m[1], m[2]] as [string, string]));

/** A run of the engine with these settings, in a scratch folder: its verdict and which clauses failed. */
async function judged(settings: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-reference-'));
  try {
    const result = await runConformance({ env: commandEnv({ ...settings, CONFORMANCE_REPORT_DIR: dir }) as Record<string, string>, cwd: dir });
    return { verdict: result.verdict, failed: result.targets[0].report.clauses.filter((c) => c.status === 'failed').map((c) => c.id) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the settings printed for a named fault make a run that fails exactly the clauses the fault breaks; stopped, it ends with 0 and the port is let go', async () => {
  const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
  const stop = new AbortController();
  const served = serve(['--port', '0', fault.name], stop);
  await expect.poll(() => served.stdout(), { intervals: [50] }).toContain('Ctrl+C stops it.');
  const settings = settingsOf(served.stdout());
  expect(Object.keys(settings).sort()).toEqual([
    'CONFORMANCE_ADMIN_TOKEN',
    'CONFORMANCE_BASE_URL',
    'CONFORMANCE_FORBIDDEN_TOKEN',
    'CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP',
    'CONFORMANCE_SIGNUP_TOKENS',
  ]);
  expect(settings.CONFORMANCE_BASE_URL).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/variants/${fault.name}$`));
  expect(served.stdout()).toContain(`the fault ${fault.name}: ${fault.description}; it breaks ${fault.breaks.join(', ')}.`);
  expect(await judged(settings)).toEqual({ verdict: 'fail', failed: fault.breaks });
  stop.abort();
  expect(await served.ended).toBe(0);
  expect(served.stdout()).toMatch(/The reference server stopped\.\n$/);
  expect(served.stderr()).toBe('');
  await expect(fetch(settings.CONFORMANCE_BASE_URL)).rejects.toThrow();
});

test('a valid variant, and the faithful implementation when none is named, pass: every variant is served under /variants/', async () => {
  const stop = new AbortController();
  const served = serve([], stop);
  try {
    await expect.poll(() => served.stdout(), { intervals: [50] }).toContain('Ctrl+C stops it.');
    const settings = settingsOf(served.stdout());
    expect(served.stdout()).toContain(`At ${settings.CONFORMANCE_BASE_URL}: the faithful reference implementation, which conforms.`);
    expect((await judged(settings)).verdict).toBe('pass');
    const valid = VALID_VARIANTS.find((v) => v.name === 'vendor-fields-everywhere')!;
    expect((await judged({ ...settings, CONFORMANCE_BASE_URL: `${settings.CONFORMANCE_BASE_URL}/variants/${valid.name}` })).verdict).toBe('pass');
  } finally {
    stop.abort();
    await served.ended;
  }
});

test('a name that is no variant is one line naming the nearest, exit code 2, nothing served; --list names every one', async () => {
  const stop = new AbortController();
  const typo = serve(['expired-tokn-enabled'], stop);
  expect(await typo.ended).toBe(2);
  expect(typo.stderr()).toBe(
    'admin-api-conformance reference: no fault or valid variant is named "expired-tokn-enabled"; did you mean "expired-token-enabled"? (admin-api-conformance reference --list names them all)\n',
  );
  const hostile = serve(['\u001b[2Jnothing-like-it'], stop);
  expect(await hostile.ended).toBe(2);
  expect(hostile.stderr()).toContain('"\\u001b[2Jnothing-like-it" (admin-api-conformance');
  const listed = serve(['--list'], stop);
  expect(await listed.ended).toBe(0);
  for (const variant of [...FAULTS, ...VALID_VARIANTS]) expect(listed.stdout()).toContain(`\n  ${variant.name}  ${variant.description}; `);
});

test('a port that is taken or is no port is one line, exit code 2', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const stop = new AbortController();
    const busy = serve(['--port', String(port)], stop);
    expect(await busy.ended).toBe(2);
    expect(busy.stderr()).toBe(`admin-api-conformance reference: port ${port} is taken (EADDRINUSE): give another with --port, or --port 0 for any free one\n`);
    for (const given of ['70000', 'eighty', '-1']) {
      const wrong = serve(['--port', given], stop);
      expect(await wrong.ended, given).toBe(2);
      expect(wrong.stderr(), given).toMatch(/^admin-api-conformance reference: --port (takes a port number|needs a value)/);
    }
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

test('--help lists the reference command', () => {
  const help = runCommandFile(COMMAND, ['--help']);
  expect(help.stdout).toContain('admin-api-conformance reference [--port N] [<fault>]');
});

test('as the command: Ctrl+C stops the server, which ends with 0 and says so', async () => {
  const started = Date.now();
  const child = spawn(process.execPath, [COMMAND, 'reference', '--port', '0', 'token-without-name'], {
    env: commandEnv({}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    await expect.poll(() => output, { timeout: 60_000, intervals: [50] }).toContain('Ctrl+C stops it.');
    child.kill('SIGINT');
    const code = await ended;
    noteRun(started, code, output);
    expect(code, output).toBe(0);
    expect(output).toMatch(/The reference server stopped\.\n$/);
  } finally {
    child.kill('SIGKILL');
  }
});
