import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCK_FILE } from '../../harness/config/report-folder.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { neverAnswers, recordingReference, withServer } from '../support/hostile-servers.ts';
import { runClauses } from '../support/run-clauses.ts';
import { killGroup, referenceTargetEnv, runSuite, type RunControl, type SuiteRun } from '../support/run-suite.ts';

// The gate fails closed: no green without the user's target, an exit code that says what happened
// (0 pass, 1 violation, 2 configuration, 3 no verdict), whatever reporters the user chooses.

const expiredEnabled = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
let server: Awaited<ReturnType<typeof startReferenceServer>>;
test.beforeAll(async () => (server = await startReferenceServer(0, [expiredEnabled])));
test.afterAll(async () => new Promise<void>((resolve) => server.server.close(() => resolve())));

const expiredEnabledEnv = () => referenceTargetEnv(`${server.url}/variants/${expiredEnabled.name}`);

// The clauses a run judges are chosen in Playwright by --grep, --grep-invert or --project; the reports are the
// engine's for the clauses chosen (a run of the command that narrows by --project: self-tests/reporters/multi-target.test.ts).
test('leaving the failing clause out of those judged, as --grep-invert does, is partial, exit code 3, and names the clauses not judged', async () => {
  const others = loadCatalogue()
    .map((c) => c.id)
    .filter((id) => id !== 'signup-token.state.expired-not-enabled');
  const run = await runClauses(expiredEnabledEnv(), others);
  expect(run.exitCode, run.stdout + run.stderr).toBe(3);
  expect(run.report?.verdict).toBe('partial');
  expect(run.report?.clauses.filter((c) => c.status === 'not-judged').map((c) => c.id)).toEqual(['signup-token.state.expired-not-enabled']);
  expect(run.stdout).toContain('PARTIAL');
  // The badge's face says the verdict; its title, the counts.
  const badge = readFileSync(path.join(run.reportDir, 'badge.svg'), 'utf8');
  expect(badge).toContain('>PARTIAL<');
  expect(badge).toContain('<title>conformance: PARTIAL, no verdict: 1 MUST clause(s) were not judged in this run; 36 of 37 MUST clauses passed;');
});

test('a stale .env in the current folder does not override the target file; it is reported', async () => {
  await withServer(recordingReference(), async (target) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-dotenv-stale-'));
    try {
      await withServer(recordingReference(), async (stale) => {
        writeFileSync(path.join(dir, '.env'), `CONFORMANCE_BASE_URL=${stale.url}\nCONFORMANCE_ADMIN_TOKEN=stale-token-123\n`);
        const file = path.join(dir, 'target.yaml');
        const env = referenceTargetEnv(target.url);
        writeFileSync(file, `baseUrl: ${target.url}\nadminToken: "${env.CONFORMANCE_ADMIN_TOKEN}"\nsignupTokens: "${env.CONFORMANCE_SIGNUP_TOKENS}"\n`);
        const run = await runSuite({ CONFORMANCE_TARGET: file, CONFORMANCE_REPORT_DIR: path.join(dir, 'report') }, [], undefined, undefined, dir);
        expect(run.report?.target.baseUrl).toBe(target.url);
        expect(stale.seen).toEqual([]);
        expect(target.seen.length).toBeGreaterThan(0);
        expect(run.stderr).toContain(`CONFORMANCE_BASE_URL from .env is overridden by the target file ${file}`);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Sends `signal` to the command (or its whole process group) once `ready` holds: say, once the target has been asked. */
const signalWhen =
  (signal: NodeJS.Signals, ready: () => boolean, group = false): RunControl =>
  (child) => {
    const poll = setInterval(() => {
      if (!ready()) return;
      clearInterval(poll);
      if (group) killGroup(child, signal);
      else child.kill(signal);
    }, 20);
    child.on('close', () => clearInterval(poll));
  };

// SIGINT is Ctrl+C in a terminal; SIGHUP comes from a closed terminal or an SSH session that dropped: the command
// alone gets each here.
for (const [signal, exitCode] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)
  test(`${signal} stops a run within seconds, exit code ${exitCode}, with the report marked interrupted and no process left`, async () => {
    await withServer(neverAnswers(), async (target) => {
      const run = await runSuite(
        referenceTargetEnv(target.url, { CONFORMANCE_TIMEOUT_MS: '60000' }),
        [],
        undefined,
        signalWhen(signal, () => target.seen.length > 0),
      );
      expect(run.exitCode, run.stdout + run.stderr).toBe(exitCode);
      expect(run.report).toMatchObject({ verdict: 'incomplete', interrupted: true, completed: false });
      expect(run.report?.errors.join('\n')).toContain('interrupted');
      expect(readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8')).toMatch(/^## Conformance: INTERRUPTED/);
      expect(run.durationMs).toBeLessThan(20_000);
      expect(existsSync(path.join(run.reportDir, LOCK_FILE))).toBe(false);
      // The command, Playwright and its workers shared one process group: nothing of it is left.
      expect(() => process.kill(-run.pid, 0)).toThrow();
    });
  });

/** The command's own child, Playwright's runner, found by its parent process id in /proc (Linux). */
function runnerOf(commandPid: number): number | undefined {
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (name) state ppid …": the name may hold spaces and parentheses, so the fields are read after its last ')'.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === commandPid) return Number(entry);
    } catch {
      // the process ended while the list was read
    }
  }
  return undefined;
}

// The system's out-of-memory killer picks the largest process: the runner, which holds the answers.
test('a runner killed from outside is no verdict, exit code 3, with a line that names the signal', async () => {
  await withServer(neverAnswers(), async (target) => {
    const run = await runSuite(referenceTargetEnv(target.url, { CONFORMANCE_TIMEOUT_MS: '60000' }), [], undefined, (child) => {
      const poll = setInterval(() => {
        const runner = target.seen.length > 0 ? runnerOf(child.pid!) : undefined;
        if (runner === undefined) return;
        clearInterval(poll);
        process.kill(runner, 'SIGKILL');
      }, 20);
      child.on('close', () => clearInterval(poll));
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(3);
    expect(run.stderr).toContain('conformance: no verdict: the run ended before its report (Playwright was killed by SIGKILL, perhaps for lack of memory)');
    expect(run.report?.verdict).toBe('incomplete');
  });
});

// SIGKILL of the command alone (not of its process group): the command cannot pass it on, and Playwright's
// runner would go on alone, holding the report folder, for as long as the target takes.
test('a command killed with SIGKILL takes its run with it: the runner stops within seconds, its report marked interrupted', async () => {
  await withServer(neverAnswers(), async (target) => {
    let runner: number | undefined;
    const run = await runSuite(referenceTargetEnv(target.url, { CONFORMANCE_TIMEOUT_MS: '60000' }), [], undefined, (child) => {
      const poll = setInterval(() => {
        runner = target.seen.length > 0 ? runnerOf(child.pid!) : undefined;
        if (runner === undefined) return;
        clearInterval(poll);
        child.kill('SIGKILL');
      }, 20);
      child.on('close', () => clearInterval(poll));
    });
    // The command's output closes once the runner, which shares it, has ended too.
    expect(run.durationMs, run.stdout + run.stderr).toBeLessThan(20_000);
    expect(run.report).toMatchObject({ verdict: 'incomplete', interrupted: true, completed: false });
    expect(run.report?.errors.join('\n')).toContain('interrupted');
    expect(runningState(runner!)).not.toBe('running');
  });
});

/** Whether a process still runs, has ended (a zombie no one has reaped yet counts as ended), or is gone. */
function runningState(pid: number): 'running' | 'ended' | 'gone' {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z') ? 'ended' : 'running';
  } catch {
    return 'gone';
  }
}

// One run against the embedded reference target, as a fresh clone runs it with nothing configured, serves
// every check of it; the last reuses its report folder as the earlier pass a killed run must not leave.
test.describe('the embedded reference target', () => {
  test.describe.configure({ mode: 'default' });
  let embedded: SuiteRun;
  test.beforeAll(async () => {
    embedded = await runSuite();
  });
  test.afterAll(() => embedded && rmSync(embedded.reportDir, { recursive: true, force: true }));

  test('the suite passes the embedded reference target, every MUST clause exercised, exit code 0', () => {
    expect(embedded.exitCode, embedded.stdout + embedded.stderr).toBe(0);
    expect(embedded.report?.verdict).toBe('pass');
    expect(embedded.report?.completed).toBe(true);
    const must = embedded.report!.clauses.filter((c) => c.level === 'MUST');
    expect(must.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status}`)).toEqual([]);
    expect(embedded.report!.summary).toMatchObject({ failed: 0, errored: 0, notExercised: 0 });
  });

  test('the embedded reference target is named as such in the verdict line and the badge', () => {
    expect(embedded.stdout).toContain('PASS: the target meets every MUST clause (embedded reference target, not a deployment)');
    const badge = readFileSync(path.join(embedded.reportDir, 'badge.svg'), 'utf8');
    expect(badge).toContain('>PASS · embedded demo<');
    expect(badge).toContain('(embedded reference target, not a deployment); 37 of 37 MUST clauses passed');
    expect(embedded.report?.target.embedded).toBe(true);
  });

  test('a run killed before its reporter leaves a report whose verdict is incomplete, never an earlier pass', async () => {
    const reportDir = embedded.reportDir;
    expect(embedded.report?.verdict).toBe('pass');
    await withServer(neverAnswers(), async (target) => {
      const run = await runSuite(
        referenceTargetEnv(target.url, { CONFORMANCE_TIMEOUT_MS: '60000', CONFORMANCE_REPORT_DIR: reportDir }),
        [],
        undefined,
        signalWhen('SIGKILL', () => target.seen.length > 0, true),
      );
      expect(run.exitCode).toBeNull();
      expect(run.report?.verdict).toBe('incomplete');
      expect(readFileSync(path.join(reportDir, 'badge.svg'), 'utf8')).not.toContain('#2e7d32');
    });
  });
});

test('a report folder another live run holds is refused with one line, exit code 2', async () => {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-locked-'));
  const other = spawn('sleep', ['60'], { stdio: 'ignore' });
  try {
    // A run's lock names its process and, where the system tells it, when that process started (field 22 of its stat).
    const stat = readFileSync(`/proc/${other.pid}/stat`, 'utf8');
    writeFileSync(path.join(reportDir, LOCK_FILE), `${other.pid} ${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}\n`);
    const run = await runSuite({ CONFORMANCE_REPORT_DIR: reportDir });
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain(`another run (process ${other.pid}) is writing to ${reportDir}`);
  } finally {
    other.kill();
    rmSync(reportDir, { recursive: true, force: true });
  }
});

test('two runs of the engine in one process refuse to share a report folder: the second is a configuration error, the first goes on', async () => {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-locked-'));
  try {
    const [first, second] = await Promise.all([runSuite({ CONFORMANCE_REPORT_DIR: reportDir }), runSuite({ CONFORMANCE_REPORT_DIR: reportDir })]);
    expect([first.exitCode, second.exitCode].sort()).toEqual([0, 2]);
    expect(first.stderr + second.stderr).toContain(`another run (process ${process.pid}) is writing to ${reportDir}`);
    // Once the first has ended, the folder is free again.
    expect((await runSuite({ CONFORMANCE_REPORT_DIR: reportDir })).exitCode).toBe(0);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
});
