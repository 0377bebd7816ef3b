import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { LOCK_FILE } from '../../harness/config/report-folder.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { runConformance } from '../../run/engine.ts';
import { neverAnswers, recordingReference, withServer } from '../support/hostile-servers.ts';
import { commandEnv, killGroup, referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// A stopped run says so, once and in one word: the line it prints, its headline in every report (INTERRUPTED, as
// each target's own), and its report folder let go. Stopped by the caller's AbortSignal, in process; once by Ctrl+C
// in a terminal, which signals the command's whole process group (fail-closed.test.ts signals the command alone).

/** A run in this process, stopped once `ready` holds; its result, its lines, and its report folder. */
async function stoppedRun(env: Record<string, string>, ready: () => boolean) {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-interrupted-'));
  const stop = new AbortController();
  let stoppedAt = 0;
  const poll = setInterval(() => {
    if (stop.signal.aborted || !ready()) return;
    stoppedAt = Date.now();
    stop.abort();
  }, 20);
  let [stdout, stderr] = ['', ''];
  const output = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) };
  try {
    const result = await runConformance({
      env: commandEnv({ ...env, CONFORMANCE_REPORT_DIR: reportDir }) as Record<string, string>,
      cwd: reportDir,
      output,
      signal: stop.signal,
    });
    const endedAfterStopMs = Date.now() - stoppedAt;
    return { result, stdout, stderr, reportDir, endedAfterStopMs, summary: readFileSync(path.join(reportDir, 'summary.md'), 'utf8') };
  } finally {
    clearInterval(poll);
  }
}

test('repeat mode stopped by the caller sends nothing more, says in one line that it was interrupted, and its reports say INTERRUPTED', async () => {
  await withServer(recordingReference(), async (target) => {
    let seenAtStop = 0;
    const run = await stoppedRun(referenceTargetEnv(target.url, { CONFORMANCE_REPEAT: '1000', CONFORMANCE_CONCURRENCY: '2' }), () => {
      seenAtStop = target.seen.length;
      return seenAtStop > 40;
    });
    try {
      // The rounds not yet sent are dropped: no more than the requests in flight when it stopped reach the target.
      expect(target.seen.length - seenAtStop).toBeLessThanOrEqual(2);
      // Stopped within seconds, as a stop promises (docs/outcomes.md); a bound with room for a busy machine.
      expect(run.endedAfterStopMs).toBeLessThan(20_000);
      expect(run.result).toMatchObject({ verdict: 'incomplete', exitCode: 3 });
      expect(run.result.targets[0].report).toMatchObject({ interrupted: true, completed: false });
      expect(run.result.reason).toBe('interrupted: the run was stopped before it ended, and has no verdict');
      expect(run.summary).toMatch(/^## Conformance: INTERRUPTED, /);
      expect(run.stdout.trim().split('\n')).toEqual([
        `INTERRUPTED: the run was stopped before it ended, and has no verdict; its reports say so: ${path.join(run.reportDir, 'index.html')}`,
      ]);
      expect(existsSync(path.join(run.reportDir, LOCK_FILE))).toBe(false);
    } finally {
      rmSync(run.reportDir, { recursive: true, force: true });
    }
  });
});

test('a fleet stopped by the caller is INTERRUPTED in its headline, its page, its summary and its terminal line, as each target is', async () => {
  await withServer(neverAnswers(), async (target) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-interrupted-fleet-'));
    const fleet = path.join(dir, 'fleet.yaml');
    const targets = Array.from({ length: 9 }, (_, i) => `  - { name: tenant-${i + 1}, baseUrl: "${target.url}" }`);
    writeFileSync(fleet, `defaults: { adminTokenFrom: CONFORMANCE_TOKEN_REF_ADMIN, timeoutMs: 60000 }\ntargets:\n${targets.join('\n')}\n`);
    const run = await stoppedRun({ CONFORMANCE_TARGETS: fleet, CONFORMANCE_TOKEN_REF_ADMIN: REFERENCE_FIXTURES.adminToken }, () => target.seen.length >= 9);
    try {
      const matrix: MatrixReport = JSON.parse(readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8'));
      expect(matrix).toMatchObject({ verdict: 'incomplete', interrupted: true });
      expect(matrix.targets.map((t) => [t.verdict, t.interrupted])).toEqual(Array(9).fill(['incomplete', true]));
      expect(run.summary).toMatch(/^## Conformance matrix: INTERRUPTED, 0 of 9 targets pass/);
      expect(run.summary).toContain('| tenant-1 | INTERRUPTED |');
      expect(run.summary).not.toContain('INCOMPLETE');
      const page = readFileSync(path.join(run.reportDir, 'index.html'), 'utf8');
      expect(page).toContain('<title>Conformance matrix INTERRUPTED</title>');
      expect(page).toContain('<span class="badge" data-testid="verdict">INTERRUPTED</span>');
      // Nowhere INCOMPLETE: not a row, not the verdict filter's choices.
      expect(page).not.toContain('INCOMPLETE');
      const each = readFileSync(path.join(run.reportDir, 'targets', 'tenant-1', 'summary.md'), 'utf8');
      expect(each).toMatch(/^## Conformance: INTERRUPTED, /);
      expect(run.stdout.trim().split('\n')).toEqual([
        `INTERRUPTED: the run was stopped before it ended, and has no verdict; its reports say so: ${path.join(run.reportDir, 'index.html')}`,
      ]);
      expect(existsSync(path.join(run.reportDir, LOCK_FILE))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(run.reportDir, { recursive: true, force: true });
    }
  });
});

test('Ctrl+C in repeat mode stops the command within seconds, exit code 130: one line, the reports INTERRUPTED, the folder let go', async () => {
  await withServer(recordingReference(), async (target) => {
    const run = await runSuite(referenceTargetEnv(target.url, { CONFORMANCE_REPEAT: '1000', CONFORMANCE_CONCURRENCY: '2' }), [], undefined, (child) => {
      const poll = setInterval(() => {
        if (target.seen.length <= 40) return;
        clearInterval(poll);
        killGroup(child, 'SIGINT');
      }, 20);
      child.on('close', () => clearInterval(poll));
    });
    expect(run.exitCode, run.stdout + run.stderr).toBe(130);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(
      `INTERRUPTED: the run was stopped before it ended, and has no verdict; its reports say so: ${path.join(run.reportDir, 'index.html')}`,
    );
    expect(run.stderr).toBe('');
    expect(run.report).toMatchObject({ verdict: 'incomplete', interrupted: true });
    expect(readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8')).toMatch(/^## Conformance: INTERRUPTED, /);
    expect(existsSync(path.join(run.reportDir, LOCK_FILE))).toBe(false);
    expect(() => process.kill(-run.pid, 0)).toThrow();
  });
});
