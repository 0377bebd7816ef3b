import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { neverAnswers, withServer } from '../support/hostile-servers.ts';
import { commandEnv, groupAlive, noteRun, PROJECT_ROOT, referenceTargetEnv } from '../support/run-suite.ts';

// npm signalled alone (a CI runner cancelling a step may do that) ends without passing the signal on: the run
// it started stops within seconds all the same, its report marked interrupted, rather than go on alone.

test('SIGTERM to npm alone stops the run npm started within seconds, its report marked interrupted', async () => {
  await withServer(neverAnswers(), async (target) => {
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-npm-stop-'));
    try {
      const env = commandEnv({ ...referenceTargetEnv(target.url, { CONFORMANCE_TIMEOUT_MS: '60000' }), CONFORMANCE_REPORT_DIR: reportDir });
      const started = Date.now();
      const npm = spawn('npm', ['run', '--silent', 'conformance'], { cwd: PROJECT_ROOT, env, stdio: 'ignore', detached: true });
      await expect.poll(() => target.seen.length, { timeout: 30_000, intervals: [50] }).toBeGreaterThan(0);
      npm.kill('SIGTERM');
      // Nothing of the run is left within seconds (the bound is the poll's): npm's process group is gone, and
      // the report folder let go.
      await expect.poll(() => groupAlive(npm.pid!), { timeout: 20_000, intervals: [50] }).toBe(false);
      noteRun(started, npm.exitCode, '');
      expect(existsSync(path.join(reportDir, '.conformance-run.lock'))).toBe(false);
      expect(JSON.parse(readFileSync(path.join(reportDir, 'conformance.json'), 'utf8'))).toMatchObject({ verdict: 'incomplete', interrupted: true });
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  });
});
