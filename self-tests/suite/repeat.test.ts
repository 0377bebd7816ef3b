import { expect, test } from '@playwright/test';
import { json, errorBody } from '../../reference-server/respond.ts';
import { startReferenceServer, type Variant } from '../../reference-server/server.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// Repeat mode for staging gates: every request N times, a bounded number at once; consistency and latency.

let calls = 0;
const flaky: Variant = {
  name: 'flaky-projects',
  description: 'answers every third projects request with a server error',
  transform: (request, faithful) => {
    if (request.path !== '/api/admin/projects' || request.authorization === undefined) return faithful();
    calls += 1;
    return calls % 3 === 0 ? json(503, errorBody('ServiceUnavailable', 'try again')) : faithful();
  },
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

test('a target that answers the same request differently has no single verdict', async () => {
  const run = await runSuite(referenceTargetEnv(`${server.url}/variants/${flaky.name}`, { CONFORMANCE_REPEAT: '6', CONFORMANCE_CONCURRENCY: '2' }));
  expect(run.exitCode).not.toBe(0);
  expect(run.report!.verdict).not.toBe('pass');
  const c = run.report!.consistency!;
  expect(c.consistent).toBe(false);
  expect(c.inconsistent.map((i) => i.path)).toContain('/api/admin/projects');
  expect(Object.keys(c.inconsistent.find((i) => i.path === '/api/admin/projects' && i.credential === 'admin')!.answers).sort()).toEqual([
    '200 json breaks []',
    '503 json ServiceUnavailable',
  ]);
});
