import { expect, test } from '@playwright/test';
import { startReferenceServer } from '../../reference-server/server.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// The closing block says what the claim covers: a run narrowed to what it exercised passes, and lists no clause of a
// profile it does not claim as "not exercised", one line counting them instead.

test('a narrowed claim that passes lists no not-exercised clause of a profile it does not claim, and counts them in one line', async () => {
  const server = await startReferenceServer(0);
  try {
    const { CONFORMANCE_BASE_URL, CONFORMANCE_ADMIN_TOKEN } = referenceTargetEnv(server.url);
    const run = await runSuite({ CONFORMANCE_BASE_URL, CONFORMANCE_ADMIN_TOKEN, CONFORMANCE_CLAIM: 'core,projects-data' });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const outside = run.report!.clauses.filter((c) => c.level === 'MUST' && c.status === 'not-exercised');
    expect(outside.length).toBeGreaterThan(0);
    expect(run.stdout).not.toMatch(/^ {2}not exercised {2}/m);
    expect(run.stdout).toContain(`  not exercised, outside the claim  ${outside.length} MUST clauses of profiles the run does not claim`);
  } finally {
    await new Promise<void>((resolve) => server.server.close(() => resolve()));
  }
});
