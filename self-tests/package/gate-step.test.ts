import path from 'node:path';
import { expect, test } from '@playwright/test';
import { run } from '../support/package.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The action's last step gates the job on the run's exit code and names the verdict: under the ratchet
// (CONFORMANCE_GATE=regressions) exit code 0 may come with a FAIL the baseline shared, never called a pass.

const gate = (exitCode: string, verdict: string) =>
  run('bash', [path.join(PROJECT_ROOT, 'action', 'gate.sh')], PROJECT_ROOT, { EXIT_CODE: exitCode, VERDICT: verdict });

test('exit code 0 with a FAIL verdict passes the job with a warning that the verdict is still FAIL; with a PASS it is a pass', async () => {
  const ratchet = await gate('0', 'fail');
  expect(ratchet.exitCode).toBe(0);
  expect(ratchet.output).toMatch(/^::warning title=Conformance fail, nothing regressed::.*the verdict is still fail/);
  expect(ratchet.output).not.toContain('PASS');
  const pass = await gate('0', 'pass');
  expect([pass.exitCode, pass.output]).toEqual([0, 'Conformance: PASS (pass)\n']);
});
