import { expect, test } from '@playwright/test';
import { json, errorBody } from '../../reference-server/respond.ts';
import { startReferenceServer, type Variant } from '../../reference-server/server.ts';
import { rewrite } from '../../reference-server/variants/index.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// Repeat mode for staging gates: every request N times, a bounded number at once; consistency and latency.

let calls = 0;
/** Answers the projects request without a token as the document says the first time, then with a server error every other time. */
const flaky: Variant = {
  name: 'flaky-projects',
  description: 'answers the same request differently from one round to the next, the first round faithfully',
  transform: rewrite({ operation: 'projects', credential: 'none' }, (faithful) =>
    calls++ % 2 === 0 ? faithful : json(503, errorBody('ServiceUnavailable', 'try again')),
  ),
};

let server: Awaited<ReturnType<typeof startReferenceServer>>;
test.beforeAll(async () => (server = await startReferenceServer(0, [flaky])));
test.afterAll(async () => new Promise<void>((resolve) => server.server.close(() => resolve())));

test('a target that answers alike every round passes, with latency percentiles per operation', async () => {
  const run = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_REPEAT: '5', CONFORMANCE_CONCURRENCY: '3' }));
  expect(run.exitCode, run.stdout).toBe(0);
  expect(reportSchemaErrors(run.report)).toEqual([]);
  const c = run.report!.consistency!;
  expect(c).toMatchObject({ rounds: 5, concurrency: 3, consistent: true, inconsistent: [] });
  // Per round: 5 configured tokens, 1 unknown secret, 4 authentication cases; 3 lists and 3 authentication cases.
  expect(c.latencyMs['signup-token'].count).toBe(5 * 10);
  expect(c.latencyMs.projects.count).toBe(5 * 6);
  expect(c.latencyMs.projects.p50).toBeLessThanOrEqual(c.latencyMs.projects.p99);
  expect(run.stdout).toContain('repeat:  5 rounds, 3 at a time: every request answered alike');
});

// The first round, which every clause judges, is faithful: only the disagreement between rounds stands in
// the way of a pass. Fail closed: no verdict, exit code 3, whatever reporter the user chooses.
test('a target that answers the same request differently has no single verdict, exit code 3, whatever the reporter', async () => {
  const run = await runSuite(referenceTargetEnv(`${server.url}/variants/${flaky.name}`, { CONFORMANCE_REPEAT: '6', CONFORMANCE_CONCURRENCY: '2' }), [
    '--reporter',
    'github',
  ]);
  expect(run.exitCode, run.stdout + run.stderr).toBe(3);
  expect(run.report?.verdict).toBe('error');
  expect(run.report?.summary.must.failed).toBe(0);
  const c = run.report!.consistency!;
  expect(c.consistent).toBe(false);
  expect(c.inconsistent.map((i) => `${i.credential} ${i.path}`)).toEqual(['none /api/admin/projects']);
  expect(Object.keys(c.inconsistent[0].answers).sort()).toEqual(['401 json AuthenticationRequired', '503 json ServiceUnavailable']);
});
