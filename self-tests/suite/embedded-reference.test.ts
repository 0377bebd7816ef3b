import { expect, test } from '@playwright/test';
import { runSuite } from '../support/run-suite.ts';

test('the suite passes the embedded reference target, every MUST clause exercised, exit code 0', async () => {
  const run = await runSuite();
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  expect(run.report?.verdict).toBe('pass');
  expect(run.report?.completed).toBe(true);
  const must = run.report!.clauses.filter((c) => c.level === 'MUST');
  expect(must.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status}`)).toEqual([]);
  expect(run.report!.summary).toMatchObject({ failed: 0, errored: 0, notExercised: 0 });
  expect(run.stdout).toContain('PASS: the target meets every MUST clause (embedded reference target, not a deployment)');
});
