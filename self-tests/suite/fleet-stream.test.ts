import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LOCK_FILE } from '../../harness/config/report-folder.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { neverAnswers, withServer } from '../support/hostile-servers.ts';
import { killGroup, runSuiteProcess, statusesOf } from '../support/run-suite.ts';
import { SILENT } from '../../run/output.ts';
import { loadRun } from '../../run/prepare.ts';
import { startRun } from '../../run/report-folder.ts';
import { streamRun, withdrawn } from '../../run/report-run.ts';

// A fleet under the command, its tests not narrowed, is written as each target's judging ends, in global setup
// (run/report-run.ts streamRun), and its tests replay each clause's fleet replay added up meanwhile: the command's
// exit code, lines and reports are the engine's, and Ctrl+C while it streams leaves it INTERRUPTED. Child
// processes: only a process shows what Playwright's runner and a signal do with it. What taking back a streamed run
// leaves is the engine's, shown in process.

const EXPIRED = FAULTS.find((f) => f.name === 'expired-token-enabled')!;

/** A fleet file of `n` targets at `urlOf(i)`, in a folder of its own. */
function fleetFile(n: number, urlOf: (i: number) => string): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-fleet-stream-'));
  const lines = Array.from({ length: n }, (_, i) => `  - { name: tenant-${i + 1}, baseUrl: "${urlOf(i)}" }`);
  const file = path.join(dir, 'fleet.yaml');
  writeFileSync(
    file,
    `defaults: { adminTokenFrom: CONFORMANCE_TOKEN_REF_ADMIN, forbiddenTokenFrom: CONFORMANCE_TOKEN_REF_FORBIDDEN, signupTokensFrom: CONFORMANCE_TOKEN_REF_SIGNUP, timeoutMs: 60000 }\ntargets:\n${lines.join('\n')}\n`,
  );
  const env = {
    CONFORMANCE_TARGETS: file,
    CONFORMANCE_TOKEN_REF_ADMIN: REFERENCE_FIXTURES.adminToken,
    CONFORMANCE_TOKEN_REF_FORBIDDEN: REFERENCE_FIXTURES.forbiddenToken,
    CONFORMANCE_TOKEN_REF_SIGNUP: REFERENCE_FIXTURES.signupTokens.join(','),
  };
  return { dir, env };
}

test("a fleet whose tests nothing narrows is carried as the engine wrote it: one failing tenant fails its clause's test and the run, exit code 1", async () => {
  const reference = await startReferenceServer(0, [EXPIRED]);
  const { dir, env } = fleetFile(10, (i) => (i === 3 ? `${reference.url}/variants/${EXPIRED.name}` : reference.url));
  try {
    const run = await runSuiteProcess(env, ['--reporter=line'], 110_000);
    try {
      expect(run.exitCode, run.stdout + run.stderr).toBe(1);
      const matrix = run.report as unknown as MatrixReport;
      expect(matrix.verdict).toBe('fail');
      expect(matrix.targets.map((t) => t.verdict)).toEqual(Array.from({ length: 10 }, (_, i) => (i === 3 ? 'fail' : 'pass')));
      // Every clause was judged and every report holds it: nothing was left out.
      const tenant = JSON.parse(readFileSync(path.join(run.reportDir, 'targets', 'tenant-4', 'conformance.json'), 'utf8'));
      expect(statusesOf(tenant)['signup-token.state.expired-not-enabled']).toBe('failed');
      expect(Object.values(statusesOf(tenant))).not.toContain('not-judged');
      expect(existsSync(path.join(run.reportDir, 'targets', 'tenant-4', 'evidence.tar.gz'))).toBe(true);
      // Playwright's own reporter, given in place of the suite's lines, saw the one failing test with its tenant named.
      expect(run.stdout).toMatch(/1 failed/);
      expect(run.stdout).toContain('1 of 10 targets: failed');
      expect(run.stdout).toContain('tenant-4: ');
      expect(run.stdout).toMatch(/Conformance matrix: FAIL, 9 of 10 targets pass/);
    } finally {
      rmSync(run.reportDir, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => reference.server.close(() => resolve()));
  }
});

test('Ctrl+C while a fleet is written target by target stops the command, exit code 130: its reports INTERRUPTED, no bundle left, the folder let go', async () => {
  await withServer(neverAnswers(), async (target) => {
    const { dir, env } = fleetFile(9, () => target.url);
    const run = await runSuiteProcess(env, [], 60_000, (child) => {
      const poll = setInterval(() => {
        if (target.seen.length < 9) return;
        clearInterval(poll);
        killGroup(child, 'SIGINT');
      }, 20);
      child.on('close', () => clearInterval(poll));
    });
    try {
      expect(run.exitCode, run.stdout + run.stderr).toBe(130);
      expect(run.report).toMatchObject({ verdict: 'incomplete', interrupted: true });
      const matrix = run.report as unknown as MatrixReport;
      expect(matrix.targets.map((t) => [t.verdict, t.interrupted])).toEqual(Array(9).fill(['incomplete', true]));
      expect(readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8')).toMatch(/^## Conformance matrix: INTERRUPTED, /);
      expect(existsSync(path.join(run.reportDir, 'targets', 'tenant-1', 'evidence.tar.gz'))).toBe(false);
      expect(existsSync(path.join(run.reportDir, LOCK_FILE))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(run.reportDir, { recursive: true, force: true });
    }
  });
});

// What the reporter does when Playwright chose fewer tests than the clauses a streamed fleet judged (an option the
// suite does not know to narrow them): the engine's withdrawn, in this process, on a fleet streamed as global setup
// streams it. No report of the fleet may keep a verdict its tests did not carry.
test('a streamed fleet whose tests came out narrower than its judging is taken back: every report without a verdict, no bundle, exit code 3', async () => {
  const reference = await startReferenceServer(0, [EXPIRED]);
  const { dir, env } = fleetFile(9, (i) => (i === 0 ? `${reference.url}/variants/${EXPIRED.name}` : reference.url));
  try {
    const run = loadRun({ ...env, CONFORMANCE_REPORT_DIR: path.join(dir, 'report') }, dir);
    const release = startRun(run, SILENT);
    try {
      const streamed = await streamRun(run, { started: Date.now() }, SILENT);
      expect(streamed.exitCode).toBe(1);
      const bundles = streamed.targets.map((t) => t.bundle!);
      expect(bundles.every((b) => existsSync(b))).toBe(true);
      const result = await withdrawn(run, streamed, 'the tests came out narrower than the judging', 0, SILENT);
      expect([result.exitCode, result.verdict]).toEqual([3, 'error']);
      for (const target of run.targets) {
        const report = JSON.parse(readFileSync(path.join(target.reportDir, 'conformance.json'), 'utf8'));
        expect(report.verdict, target.name).toBe('error');
        expect(report.errors, target.name).toContain('the tests came out narrower than the judging');
        expect(Object.values(statusesOf(report)), target.name).not.toContain('passed');
      }
      expect(bundles.filter((b) => existsSync(b))).toEqual([]);
      expect((JSON.parse(readFileSync(path.join(dir, 'report', 'conformance.json'), 'utf8')) as MatrixReport).verdict).toBe('error');
    } finally {
      release();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => reference.server.close(resolve));
  }
});
