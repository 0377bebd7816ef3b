import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { echoingSecrets } from '../support/echoing-target.ts';
import { QUICK_TIMEOUTS, type LoopbackServer } from '../support/hostile-servers.ts';
import { killGroup, runSuite, type RunControl, type SuiteRun } from '../support/run-suite.ts';
import { canary, contentsUnder, leaks, type Canary } from '../support/leaks.ts';

// No token reaches the terminal, a report, the JUnit file, a trace, an attachment or the temporary folder,
// in any written form (support/written-forms.ts), even from a target that quotes them back in every answer,
// in every spelling, across every cut (support/echoing-target.ts).

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

/** Runs the suite, traces on, against the echoing target, and lists every place a canary turned up. */
async function runAndScan(
  admin: Canary,
  control?: (server: LoopbackServer) => RunControl,
): Promise<{ run: SuiteRun; leaks: string[]; traced: boolean; bundled: boolean }> {
  const server = await echoingSecrets({ admin: ADMIN.value, forbidden: FORBIDDEN.value, signup: SIGNUP.map((c) => c.value) });
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'conformance-secrets-tmp-'));
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-secrets-report-'));
  try {
    const run = await runSuite(
      { ...canaryEnv(server.url, admin, tmp), CONFORMANCE_REPORT_DIR: reportDir },
      ['--trace', 'on'],
      TRACED_RUN_MS,
      control?.(server),
    );
    expect(
      server.seen.some((r) => r.authorization === admin.value),
      'the target was asked with the canary',
    ).toBe(true);
    // Playwright's own output (traces included) goes to the temporary folder, the reports to the report folder.
    const written = [...contentsUnder(reportDir), ...contentsUnder(tmp)];
    const traced = written.some(([where]) => where.includes('trace.zip!'));
    const bundled = written.some(([where]) => where.endsWith('evidence.tar.gz!'));
    return { run, traced, bundled, leaks: leaks([['stdout', run.stdout], ['stderr', run.stderr], ...written], [...new Set([admin, ...CANARIES])]) };
  } finally {
    await server.close();
    for (const dir of [tmp, reportDir]) rmSync(dir, { recursive: true, force: true });
  }
}

test('no token appears in the terminal output or any file the run wrote, traces included, though the target quotes them everywhere', async () => {
  const { run, leaks: found, traced, bundled } = await runAndScan(ADMIN);
  expect(run.exitCode, run.stdout + run.stderr).toBe(1);
  expect(run.report?.verdict).toBe('fail');
  expect(traced).toBe(true);
  expect(found).toEqual([]);
  // The evidence bundle was there to look into: a tar, whose files it stores as they are.
  expect(bundled).toBe(true);
  // The quoted secrets did reach the reports, as markers.
  const report = JSON.stringify(run.report);
  for (const marker of ['$TOKEN', '$FORBIDDEN_TOKEN', '$SIGNUP_TOKEN_1']) expect(report).toContain(marker);
});

test('no token appears in the output of a run stopped because the target refused the admin token it quotes back', async () => {
  const { run, leaks: found } = await runAndScan(canary('CONFORMANCE_ADMIN_TOKEN (refused)', '*:*.canary-refused-'));
  expect(run.exitCode, run.stdout + run.stderr).toBe(3);
  expect(run.report?.verdict).toBe('error');
  expect(run.report?.errors.join('\n')).toContain('the target refused CONFORMANCE_ADMIN_TOKEN');
  expect(found).toEqual([]);
});

/** Kills the whole run with SIGKILL once `ready` holds: nothing it leaves behind may hold a secret. */
const killWhen =
  (ready: (server: LoopbackServer, output: string) => boolean) =>
  (server: LoopbackServer): RunControl =>
  (child, output) => {
    const poll = setInterval(() => {
      if (!ready(server, output())) return;
      clearInterval(poll);
      killGroup(child, 'SIGKILL');
    }, 5);
    child.on('close', () => clearInterval(poll));
  };

const KILL_POINTS: [string, (server: LoopbackServer, output: string) => boolean][] = [
  ['while the target is being asked, the answers in memory', (server) => server.seen.length >= 3],
  ['while the tests replay the verdicts', (_, output) => /✓|✘/.test(output)],
];

for (const [when, ready] of KILL_POINTS) {
  test(`no file left by a run killed with SIGKILL ${when} holds a token`, async () => {
    const { run, leaks: found } = await runAndScan(ADMIN, killWhen(ready));
    expect(run.exitCode).toBeNull();
    expect(found).toEqual([]);
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
