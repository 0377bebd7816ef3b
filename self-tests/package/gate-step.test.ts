import path from 'node:path';
import { expect, test } from '@playwright/test';
import { run } from '../support/package.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The action's last step gates the job on the run's exit code and names the verdict: under the ratchet
// (CONFORMANCE_GATE=regressions) exit code 0 may come with a FAIL the baseline shared, never called a pass.

const gate = (exitCode: string, verdict: string) =>
  // The gate step reads the run step's outputs only: it cannot start the suite, and is no run of it.
  run('bash', [path.join(PROJECT_ROOT, 'action', 'gate.sh')], PROJECT_ROOT, { EXIT_CODE: exitCode, VERDICT: verdict }, undefined, false);

test('exit code 0 with a FAIL verdict passes the job with a warning that the verdict is still FAIL; with a PASS it is a pass', async () => {
  const ratchet = await gate('0', 'fail');
  expect(ratchet.exitCode).toBe(0);
  expect(ratchet.output).toMatch(/^::warning title=Conformance fail, nothing regressed::.*the verdict is still fail/);
  expect(ratchet.output).not.toContain('PASS');
  const pass = await gate('0', 'pass');
  expect([pass.exitCode, pass.output]).toEqual([0, 'Conformance: PASS (pass)\n']);
});

// The gate prints what the run step's outputs say, and nothing else: whatever reached them, no line of its own can
// be a workflow command, nor a legacy `##[` one anywhere in a line, and the job is not passed but by exit code 0.
test('workflow commands from a file: an exit code that is no number, or a verdict that is no word of the suite, is none; nothing of either is printed', async () => {
  const hostile = ['pass\n::error::planted', 'pass\n##[error]planted', 'pass ##[stop-commands]x', 'pass%0A::warning::x'];
  for (const verdict of hostile) {
    for (const exitCode of ['0', '1', '3']) {
      const gated = await gate(exitCode, verdict);
      expect(gated.exitCode, `${exitCode} ${JSON.stringify(verdict)}`).toBe(Number(exitCode));
      expect(gated.output).not.toContain('planted');
      expect(gated.output).not.toContain('##[');
      expect(gated.output).not.toContain('%0A');
      expect(gated.output).not.toContain('PASS');
    }
  }
  for (const exitCode of ['0\n::error::planted', '0\nexit-code=0', '', ' 0', '256', '-1', '0x0']) {
    const gated = await gate(exitCode, 'pass');
    expect(gated.exitCode, JSON.stringify(exitCode)).toBe(3);
    expect(gated.output).toMatch(/^::error title=Conformance without a verdict::the step 'Run the conformance suite' gave no exit code/);
    expect(gated.output).not.toContain('planted');
  }
});
