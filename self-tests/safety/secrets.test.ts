import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { type Dirent, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { echoingSecrets } from '../support/echoing-target.ts';
import { QUICK_TIMEOUTS, type LoopbackServer } from '../support/hostile-servers.ts';
import { runSuite, type RunControl, type SuiteRun } from '../support/run-suite.ts';
import { canary, contentsUnder, leaks, type Canary } from '../support/leaks.ts';

// No token reaches the terminal, a report, the JUnit file, a trace, an attachment or the temporary folder,
// in any written form (support/written-forms.ts), even from a target that quotes them back in every answer,
// in every spelling, across every cut (support/echoing-target.ts). One run of the command, traces on, shows
// Playwright's files and what a run killed halfway leaves; the others are runs of the engine in this process,
// which writes nothing in the temporary folder.

// Shaped like real tokens, with characters each spelling changes: an admin token with "*:*." as Unleash
// writes them, "/" that JSON may escape, '"' that JSON must; an environment token with "+"; signup secrets
// with "~" and ".". Each starts with its own 8 characters, so that a cut-off start of it is found too.
const ADMIN = canary('CONFORMANCE_ADMIN_TOKEN', '*:*.canary-admin/"');
const FORBIDDEN = canary('CONFORMANCE_FORBIDDEN_TOKEN', 'canary-viewer:development+');
const SIGNUP = [1, 2, 3, 4, 5].map((n) => canary(`CONFORMANCE_SIGNUP_TOKENS #${n}`, `canary-signup~${n}.`));
const CANARIES = [ADMIN, FORBIDDEN, ...SIGNUP];

function canaryEnv(baseUrl: string, admin: Canary, tmp: string): Record<string, string> {
  return {
    ...QUICK_TIMEOUTS,
    CONFORMANCE_BASE_URL: baseUrl,
    CONFORMANCE_ADMIN_TOKEN: admin.value,
    CONFORMANCE_FORBIDDEN_TOKEN: FORBIDDEN.value,
    CONFORMANCE_SIGNUP_TOKENS: SIGNUP.map((c) => c.value).join(','),
    // Nothing the run writes holds a secret, in the temporary folder either: look there too.
    TMPDIR: tmp,
  };
}

/**
 * A run with traces on restarts its worker for every failing clause and writes a trace for each test: on a
 * machine busy with other work (a CI runner at a load of 8 on two cores) that takes minutes, not seconds.
 */
const TRACED_RUN_MS = 300_000;
test.describe.configure({ timeout: TRACED_RUN_MS + 60_000 });

/** What a SIGKILL at some moment of a run would leave: every file of the run's folders as it is then. */
type Moment = [string, (server: LoopbackServer, output: string) => boolean];

/**
 * Runs the suite against the echoing target and lists every place a canary turned up: with `traced`, the command
 * with traces on, its folders also read as they stand at each of `moments`; otherwise the engine in this process.
 */
async function runAndScan(
  admin: Canary,
  traced: boolean,
  moments: Moment[] = [],
): Promise<{ run: SuiteRun; leaks: string[]; traced: boolean; bundled: boolean; seen: string[]; left: string[] }> {
  const server = await echoingSecrets({ admin: ADMIN.value, forbidden: FORBIDDEN.value, signup: SIGNUP.map((c) => c.value) });
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'conformance-secrets-tmp-'));
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-secrets-report-'));
  try {
    const left: [string, Buffer][] = [];
    const seen: string[] = [];
    const run = await runSuite(
      { ...canaryEnv(server.url, admin, tmp), CONFORMANCE_REPORT_DIR: reportDir },
      traced ? ['--trace', 'on', '--grep', grepOf(TRACED_CLAUSES)] : [],
      TRACED_RUN_MS,
      traced ? readAt(moments, server, [reportDir, tmp], left, seen) : undefined,
    );
    expect(
      server.seen.some((r) => r.authorization === admin.value),
      'the target was asked with the canary',
    ).toBe(true);
    // Playwright's own output (traces included) goes to the temporary folder, the reports to the report folder.
    const written = [...contentsUnder(reportDir), ...contentsUnder(tmp)];
    const bundled = written.some(([where]) => where.endsWith('evidence.tar.gz!'));
    const places: [string, Buffer | string][] = [['stdout', run.stdout], ['stderr', run.stderr], ...written, ...left];
    return {
      run,
      traced: written.some(([where]) => where.includes('trace.zip!')),
      bundled,
      seen,
      left: left.map(([where]) => where),
      leaks: leaks(places, [...new Set([admin, ...CANARIES])]),
    };
  } finally {
    await server.close();
    for (const dir of [tmp, reportDir]) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The clauses the traced run replays (Playwright's --grep; every request is still sent and every answer bundled):
 * failures and errors that quote what the target sent, each restarting the worker and leaving its trace and
 * attachments, a pass, and clauses skipped as observed and not exercised. Every clause's words are searched in the
 * runs of the engine below; here what Playwright writes of each kind of test is.
 */
const TRACED_CLAUSES = [
  'signup-token.response.json',
  'signup-token.token.date-time',
  'projects.project.types',
  'auth.projects.forbidden',
  'error.signup-token.403',
  'auth.projects.invalid-token',
  'projects.observe.unknown-fields',
  'projects.observe.description-drift',
];
const grepOf = (ids: string[]) => ids.map((id) => `\\[${id.replaceAll('.', '\\.')}\\]`).join('|');

/** Where a SIGKILL would stop the run: with the answers in memory, and with the workers' file in the temporary folder. */
const KILL_POINTS: Moment[] = [
  ['while the target is being asked, the answers in memory', (server) => server.seen.length >= 3],
  ['while the tests replay the verdicts', (_, output) => /✓|✘/.test(output)],
];

test.describe('a run of the command with traces on', () => {
  test.describe.configure({ mode: 'default' });
  let traced: Awaited<ReturnType<typeof runAndScan>>;
  test.beforeAll(async () => {
    traced = await runAndScan(ADMIN, true, KILL_POINTS);
  });

  test('no token appears in the terminal output or any file the run wrote, traces included, though the target quotes them everywhere', () => {
    const { run, leaks: found, traced: withTraces, bundled } = traced;
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    expect(run.report?.verdict).toBe('fail');
    expect(withTraces).toBe(true);
    expect(found).toEqual([]);
    // The evidence bundle was there to look into: a tar, whose files it stores as they are.
    expect(bundled).toBe(true);
    // The quoted secrets did reach the reports, as markers.
    const report = JSON.stringify(run.report);
    for (const marker of ['$TOKEN', '$FORBIDDEN_TOKEN', '$SIGNUP_TOKEN_1']) expect(report).toContain(marker);
  });

  // The files read at each moment are among the places searched above.
  test(`no file a SIGKILL would leave ${KILL_POINTS.map(([when]) => when).join(', or ')} holds a token`, () => {
    expect(traced.seen).toEqual(KILL_POINTS.map(([when]) => when));
    // The workers' file was there to look into, which the run removes as it ends.
    expect(traced.left.some((where) => where.includes('replay.json') && where.endsWith(KILL_POINTS[1][0]))).toBe(true);
    expect(traced.leaks).toEqual([]);
  });
});

test('no token appears in the output of a run stopped because the target refused the admin token it quotes back', async () => {
  const { run, leaks: found } = await runAndScan(canary('CONFORMANCE_ADMIN_TOKEN (refused)', '*:*.canary-refused-'), false);
  expect(run.exitCode, run.stdout + run.stderr).toBe(3);
  expect(run.report?.verdict).toBe('error');
  expect(run.report?.errors.join('\n')).toContain('the target refused CONFORMANCE_ADMIN_TOKEN');
  expect(found).toEqual([]);
});

/**
 * Reads the run's folders, as they stand, at each moment: what a SIGKILL then would leave, for a kill stops every
 * process at once and removes nothing (the workers' file among it, which the run removes as it ends). A file
 * still being written is read as far as it is, as a kill would leave it.
 */
const readAt =
  (moments: Moment[], server: LoopbackServer, folders: string[], left: [string, Buffer][], seen: string[]): RunControl =>
  (child, output) => {
    let waiting = [...moments];
    const poll = setInterval(() => {
      const now = waiting.filter(([, ready]) => ready(server, output()));
      for (const [when] of now) {
        for (const [file, bytes] of folders.flatMap(filesIn)) left.push([`${file}, ${when}`, bytes]);
        seen.push(when);
      }
      waiting = waiting.filter((moment) => !now.includes(moment));
      if (waiting.length === 0) clearInterval(poll);
    }, 5);
    child.on('close', () => clearInterval(poll));
  };

/** Every file below a folder and its bytes as they are now, files that went meanwhile left out. */
function filesIn(folder: string): [string, Buffer][] {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { recursive: true, withFileTypes: true });
  } catch {
    // a folder of it went while it was listed: read it again at the next poll
    return [];
  }
  return entries
    .filter((entry) => entry.isFile())
    .flatMap((entry): [string, Buffer][] => {
      const file = path.join(entry.parentPath, entry.name);
      try {
        return [[file, readFileSync(file)]];
      } catch {
        return [];
      }
    });
}

/** A token of exactly `bytes` characters: a few distinct ones first, so the token rule takes it, then random hex, its core. */
function sized(name: string, lead: string, bytes: number): Canary {
  const random = randomBytes(bytes)
    .toString('hex')
    .slice(0, bytes - lead.length);
  // A random part of a few characters turns up anywhere by chance (in a hash, say): then the whole token is the core.
  const value = `${lead}${random}`;
  return { name, value, core: random.length < 16 ? value : random };
}

// From the shortest token the suite takes to the longest: past 1 KiB the redactor searches differently (a
// pattern of every spelling of 16 KiB or more would be too large for a regular expression).
for (const bytes of [8, 1025, 64 * 1024]) {
  test(`no token of ${bytes} bytes, of any kind, appears in the output or any file the run wrote, though the target quotes them`, async () => {
    const admin = sized('CONFORMANCE_ADMIN_TOKEN', 'A:*.', bytes);
    const forbidden = sized('CONFORMANCE_FORBIDDEN_TOKEN', 'Fv+-', bytes);
    const signup = [1, 2].map((n) => sized(`CONFORMANCE_SIGNUP_TOKENS #${n}`, `S~${n}.`, bytes));
    const server = await echoingSecrets({ admin: admin.value, forbidden: forbidden.value, signup: signup.map((c) => c.value) });
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'conformance-secrets-tmp-'));
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-secrets-report-'));
    const settings = mkdtempSync(path.join(os.tmpdir(), 'conformance-secrets-settings-'));
    try {
      // In a target file: the environment takes no string longer than 128 KiB, two signup tokens of 64 KiB together.
      const file = path.join(settings, 'target.yaml');
      const tokens = { adminToken: admin.value, forbiddenToken: forbidden.value, signupTokens: signup.map((c) => c.value) };
      writeFileSync(
        file,
        `baseUrl: ${server.url}\n${Object.entries(tokens)
          .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
          .join('\n')}\n`,
      );
      // Redacting every spelling of 64 KiB tokens in every answer takes a busy machine more than a quick run's minute.
      const run = await runSuite(
        { ...QUICK_TIMEOUTS, CONFORMANCE_RUN_TIMEOUT_MS: String(TRACED_RUN_MS), CONFORMANCE_TARGET: file, CONFORMANCE_REPORT_DIR: reportDir, TMPDIR: tmp },
        [],
        TRACED_RUN_MS + 30_000,
      );
      expect(
        server.seen.some((r) => r.authorization === admin.value),
        'the target was asked with the token',
      ).toBe(true);
      // The target breaks clauses with what it echoes (a verdict, not a refusal of the tokens); echoed into its
      // headers, a token past 16 KiB makes them larger than the suite reads, and those clauses have no verdict.
      expect([1, 3], run.stdout + run.stderr).toContain(run.exitCode);
      expect(['fail', 'error']).toContain(run.report?.verdict);
      const written = [...contentsUnder(reportDir), ...contentsUnder(tmp)];
      expect(
        written.some(([where]) => where.endsWith('evidence.tar.gz!')),
        run.stdout + run.stderr,
      ).toBe(true);
      expect(leaks([['stdout', run.stdout], ['stderr', run.stderr], ...written], [admin, forbidden, ...signup])).toEqual([]);
    } finally {
      await server.close();
      for (const dir of [tmp, reportDir, settings]) rmSync(dir, { recursive: true, force: true });
    }
  });
}
