import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LOCK_FILE, WRITTEN_FILE } from '../../harness/config/report-folder.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { actionSteps, type ShellStep } from '../support/ci-steps.ts';
import { neverAnswers, refusingUrl, withServer } from '../support/hostile-servers.ts';
import { run, userEnv } from '../support/package.ts';
import { githubEnv } from '../support/ci-runner.ts';
import { groupAlive, noteRun, PROJECT_ROOT } from '../support/run-suite.ts';
import { standInForTests } from '../support/stand-in.ts';

// The action's steps run as a runner runs them, in a workspace whoever controls the checked-out tree may have
// filled: planted report files, a lock, a .env. The action's scripts are run by bash as a runner runs them; the
// command they call stands in (support/stand-in.ts: the run is the engine's, in this process, with the step's
// arguments, environment and folder), but in the one test only a process shows: a SIGTERM that stops the step.

test.describe.configure({ timeout: 120_000 });

const standIn = standInForTests();

const ACTION = path.join(PROJECT_ROOT, 'action.yml');

interface Runner {
  workspace: string;
  output: string;
  summary: string;
  temp: string;
}

function runner(): Runner {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'conformance-action-'));
  const files = mkdtempSync(path.join(os.tmpdir(), 'conformance-action-files-'));
  const [output, summary, temp] = [path.join(files, 'output'), path.join(files, 'summary'), path.join(files, 'temp')];
  writeFileSync(output, '');
  writeFileSync(summary, '');
  mkdirSync(temp);
  return { workspace, output, summary, temp };
}

/** What a GitHub runner gives every step of the job: the action's checkout is this repository. */
const runnerEnv = (r: Runner) => ({ ...githubEnv(r), GITHUB_ACTION_PATH: PROJECT_ROOT, RUNNER_TEMP: r.temp });
/** The same, the action's command standing in. */
const standInEnv = (r: Runner) => ({ ...runnerEnv(r), ...standIn.env, GITHUB_ACTION_PATH: standIn.actionPath });

/** The step's outputs as the runner reads GITHUB_OUTPUT: one `name=value` a line, a later line winning. */
const outputsOf = (lines: string[]) => Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));

const step = (inputs: Record<string, string>, id: 'run' | 'gate', outputs: Record<string, string> = {}): ShellStep => {
  const steps = actionSteps(ACTION, inputs, { 'steps.run.outputs.exit-code': outputs['exit-code'] ?? '', 'steps.run.outputs.verdict': outputs.verdict ?? '' });
  return id === 'run' ? steps.find((s) => s.id === 'run')! : steps.at(-1)!;
};

/** The action's run step, then its gate step given the run step's outputs: what each printed, and how each ended. */
async function action(r: Runner, inputs: Record<string, string>) {
  const runStep = step(inputs, 'run');
  const ran = await run('bash', ['-e', '-c', runStep.run], r.workspace, { ...standInEnv(r), ...runStep.env }, 120_000, false);
  const written = readFileSync(r.output, 'utf8').split('\n').filter(Boolean);
  // The artifact's name, made of the inputs, is set apart: `lines` are what the run and its reports gave.
  const lines = written.filter((l) => !l.startsWith('artifact-name='));
  const artifact = written.filter((l) => l.startsWith('artifact-name=')).map((l) => l.slice('artifact-name='.length));
  const gateStep = step(inputs, 'gate', outputsOf(lines));
  const gated = await run('bash', ['-e', '-c', gateStep.run], r.workspace, { ...standInEnv(r), ...gateStep.env }, 120_000, false);
  return { ran, lines, artifact, gated, summary: readFileSync(r.summary, 'utf8') };
}

const admin = (baseUrl: string) => ({ 'base-url': baseUrl, 'admin-token': REFERENCE_FIXTURES.adminToken });

const plantReport = (r: Runner, verdict: string) => {
  const file = path.join(r.workspace, 'conformance-report', 'conformance.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ verdict }));
  return file;
};

test("false pass: a report folder with a planted lock folder (taken over) and a planted PASS report ends with the command's exit code 2 and no verdict, one line each, and the gate fails the job", async () => {
  const url = await refusingUrl();
  for (const planted of ['pass', 'pass\nexit-code=0']) {
    const r = runner();
    const report = plantReport(r, planted);
    // A folder named like the lock names no run and is taken over; the planted report, which no run listed as its
    // own, is the user's file: the run refuses to write over it, and writes nothing.
    mkdirSync(path.join(r.workspace, 'conformance-report', LOCK_FILE));
    const { ran, lines, gated, summary } = await action(r, admin(url));
    expect(ran.exitCode, ran.output).toBe(0);
    expect(ran.output).not.toContain('is not a file, so no run can hold the folder');
    expect(ran.output).toContain('conformance.json');
    // The planted report is no report of this run's: its words reach neither the outputs nor the job summary.
    expect(summary).toBe(
      "## Conformance: configuration error, nothing was checked\n\n> the run wrote no report, so what it refused is in the step's log only\n",
    );
    expect(lines, `planted ${JSON.stringify(planted)}`).toEqual(['exit-code=2', 'verdict=none']);
    expect(JSON.parse(readFileSync(report, 'utf8')).verdict).toBe(planted);
    expect(gated.exitCode).toBe(2);
    expect(gated.output).toContain('::error title=Conformance not run::');
    expect(gated.output).not.toContain('PASS');
  }
});

test('false pass: a planted lock that names no run (a file holding 1) is taken over, and the report the run leaves is the one read', async () => {
  const r = runner();
  const report = plantReport(r, 'pass\nexit-code=0');
  // Listed as an earlier run lists what it wrote: a report no run listed is refused (the next test).
  writeFileSync(path.join(r.workspace, 'conformance-report', WRITTEN_FILE), '{"written":["conformance.json"]}\n');
  writeFileSync(path.join(r.workspace, 'conformance-report', LOCK_FILE), '1\n');
  // A missing secret: the run refuses its configuration, and leaves its error report in the folder it took.
  const { ran, lines, gated, summary } = await action(r, { 'base-url': await refusingUrl(), 'admin-token': '' });
  expect(ran.output).toContain('CONFORMANCE_ADMIN_TOKEN is set but empty');
  expect(summary).toContain('> CONFORMANCE\\_ADMIN\\_TOKEN is set but empty');
  expect(ran.output).not.toContain('another run');
  expect(lines).toEqual(['exit-code=2', 'verdict=error']);
  expect(JSON.parse(readFileSync(report, 'utf8')).verdict).toBe('error');
  expect(existsSync(path.join(r.workspace, 'conformance-report', LOCK_FILE))).toBe(false);
  expect(gated.exitCode).toBe(2);
});

test("user's files: a planted PASS report that no run listed as written is the workspace's own, never written over: the run refuses, the outputs say no verdict, and the gate fails the job", async () => {
  const r = runner();
  const report = plantReport(r, 'pass\nexit-code=0');
  const { ran, lines, gated } = await action(r, admin(await refusingUrl()));
  expect(ran.output).toContain(`holds conformance.json, which no run of this suite wrote there`);
  expect(lines).toEqual(['exit-code=2', 'verdict=none']);
  expect(JSON.parse(readFileSync(report, 'utf8')).verdict).toBe('pass\nexit-code=0');
  expect(gated.exitCode).toBe(2);
  expect(gated.output).not.toContain('PASS');
});

test('a .env not asked for: a .env in the workspace does not switch the ratchet on; named by the env-file input, it is read', async () => {
  const url = await refusingUrl();
  const r = runner();
  writeFileSync(path.join(r.workspace, '.env'), 'CONFORMANCE_GATE=regressions\n');
  const unasked = await action(r, admin(url));
  // The run went on to the target (unreachable: no verdict, exit code 3), its reports in the workspace's report folder.
  expect(unasked.ran.output).not.toContain('CONFORMANCE_BASELINE');
  expect(unasked.lines, unasked.ran.output).toEqual(['exit-code=3', 'verdict=error']);
  expect(JSON.parse(readFileSync(path.join(r.workspace, 'conformance-report', 'conformance.json'), 'utf8')).verdict).toBe('error');
  writeFileSync(r.output, '');
  const named = await action(r, { ...admin(url), 'env-file': '.env' });
  expect(named.ran.output).toContain('CONFORMANCE_BASELINE');
  expect(named.lines).toEqual(['exit-code=2', 'verdict=error']);
});

test('a .env not asked for: an env-file input that names no .env is refused in one line that does not quote it, nothing run', async () => {
  const r = runner();
  writeFileSync(path.join(r.workspace, 'settings'), 'CONFORMANCE_GATE=regressions\n');
  for (const named of ['settings', 'missing/.env', 'x\n::error::planted/.env']) {
    writeFileSync(r.output, '');
    writeFileSync(r.summary, '');
    const { ran, lines, gated, summary } = await action(r, { ...admin('http://127.0.0.1:9'), 'env-file': named });
    expect(lines, named).toEqual(['exit-code=2', 'verdict=none']);
    expect(ran.output).toMatch(/^conformance: configuration error: the env-file input /m);
    expect(summary).toMatch(/^## Conformance: configuration error, nothing was checked\n\n> the env-file input names /);
    expect(summary).not.toContain('planted');
    expect(ran.output).not.toContain('::error::planted');
    expect(gated.exitCode).toBe(2);
  }
});

test('the job summary of a refused configuration is its reason on one line of Markdown, escaped, read only from a report this run wrote', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-action-reason-'));
  const report = path.join(dir, 'conformance.json');
  const verdictJs = path.join(PROJECT_ROOT, 'action', 'verdict.js');
  const reason = async (before: string) => (await run('node', [verdictJs, 'reason', report, before], dir, {}, 120_000, false)).output;
  writeFileSync(report, JSON.stringify({ verdict: 'error', errors: ['configuration error: a <script>x</script> [link](http://evil.invalid)\n## forged'] }));
  const planted = (await run('node', [verdictJs, 'identity', report], dir, {}, 120_000, false)).output.trim();
  // Left before the run: not this run's, so nothing is said of it.
  expect(await reason(planted)).toBe('');
  writeFileSync(report, JSON.stringify({ verdict: 'error', errors: ['configuration error: a <script>x</script> [link](http://evil.invalid)\n## forged'] }));
  expect(await reason('none')).toBe('a \\<script\\>x\\</script\\> \\[link\\]\\(http://evil\\.invalid\\) \\#\\# forged');
  // A run that judged is no refusal: its own summary says what it found.
  writeFileSync(report, JSON.stringify({ verdict: 'fail', errors: [] }));
  expect(await reason('none')).toBe('');
});

test("a stopped step: SIGTERM to the run step stops the command and Playwright within seconds, and the step ends with the command's code", async () => {
  await withServer(neverAnswers(), async (target) => {
    const r = runner();
    const runStep = step(admin(target.url), 'run');
    // A runner's step is no npm script: the command's watch on npm, which would stop it with its parent, is not on.
    const env = Object.fromEntries(
      Object.entries(userEnv({ ...runnerEnv(r), ...runStep.env, CONFORMANCE_TIMEOUT_MS: '60000' })).filter(([name]) => !name.startsWith('npm_')),
    );
    // The step's shell in a process group of its own, as the runner starts it; only the shell is signalled.
    const started = Date.now();
    const shell = spawn('bash', ['-e', '-c', runStep.run], { cwd: r.workspace, env, stdio: 'ignore', detached: true });
    const ended = new Promise<number | null>((resolve) => shell.on('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => target.seen.length, { timeout: 60_000, intervals: [50] }).toBeGreaterThan(0);
      shell.kill('SIGTERM');
      // Nothing of the run is left within seconds (the bound is the poll's, far below the request's minute).
      await expect.poll(() => groupAlive(shell.pid!), { timeout: 20_000, intervals: [50] }).toBe(false);
      const code = await ended;
      noteRun(started, code, '');
      expect(code).toBe(143);
      expect(readFileSync(r.output, 'utf8').split('\n').filter(Boolean)).toEqual([
        'exit-code=143',
        'verdict=incomplete',
        `artifact-name=conformance-report-127.0.0.1-${new URL(target.url).port}`,
      ]);
    } finally {
      if (groupAlive(shell.pid!)) process.kill(-shell.pid!, 'SIGKILL');
    }
  });
});
