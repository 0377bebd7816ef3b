import { expect, test } from '@playwright/test';
import { neverAnswers, refusingUrl, resetMidBody, runAgainst, RUN_BOUND_MS, withServer } from '../support/hostile-servers.ts';
import type { SuiteRun } from '../support/run-suite.ts';

// Issue 4, part 1: a target that cannot be read at all stops the run with one message, never a hang.

// Each run stops before the first check, so which checks are selected hardly matters; few keeps it quick.
const SELECTED = ['projects.response.json', 'projects.list.required', 'auth.projects.missing-header'];

/** A line of a JavaScript stack trace: the user should see the reason, not the suite's insides. */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

function expectRunStopped(run: SuiteRun, reason: RegExp): void {
  const output = run.stdout + run.stderr;
  expect(run.exitCode, output).toBe(3);
  expect(run.report?.verdict).toBe('error');
  expect(run.report?.completed).toBe(false);
  expect(run.report?.summary.passed).toBe(0);
  expect(run.report?.summary.failed).toBe(0);
  expect(run.report?.clauses.every((c) => c.status === 'errored')).toBe(true);
  expect(run.report?.errors.join('\n')).toMatch(reason);
  expect(output).toMatch(reason);
  expect(output).not.toMatch(STACK_FRAME);
}

test('a port with nothing listening stops the run as errored, naming the refused connection', async () => {
  const run = await runAgainst(await refusingUrl(), SELECTED);
  expectRunStopped(
    run,
    /conformance run stopped: no request to http:\/\/127\.0\.0\.1:\d+ got an answer: 127\.0\.0\.1:\d+ refused the connection: nothing listens there; check CONFORMANCE_BASE_URL \(ECONNREFUSED\)/,
  );
  expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
});

test('a connection reset in the middle of every body stops the run as errored, naming the reset', async () => {
  await withServer(resetMidBody(), async (server) => {
    const run = await runAgainst(server.url, SELECTED);
    expectRunStopped(
      run,
      /answered no request completely: GET \/api\/admin\/\S+: the body broke off after status 200: (the target reset the connection \(ECONNRESET\)|the target closed the connection before the end of the body \(UND_ERR_SOCKET\)|the connection ended before the body reached its Content-Length)/,
    );
    expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
  });
});

test('a server that accepts and never answers is given up on after CONFORMANCE_TIMEOUT_MS per request', async () => {
  await withServer(neverAnswers(), async (server) => {
    const run = await runAgainst(server.url, SELECTED, { CONFORMANCE_TIMEOUT_MS: '1500' });
    expectRunStopped(run, /no request to http:\/\/127\.0\.0\.1:\d+ got an answer: no answer within 1500 ms \(CONFORMANCE_TIMEOUT_MS\)/);
    expect(server.seen.length).toBeGreaterThan(0);
    expect(run.durationMs).toBeGreaterThanOrEqual(1500);
    expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
  });
});

test('CONFORMANCE_RUN_TIMEOUT_MS ends a stalled run long before the per-request timeouts would', async () => {
  await withServer(neverAnswers(), async (server) => {
    // Fifteen requests, four at a time, a minute each: without the overall bound the run takes four minutes.
    const run = await runAgainst(server.url, SELECTED, { CONFORMANCE_TIMEOUT_MS: '60000', CONFORMANCE_RUN_TIMEOUT_MS: '4000' });
    expect(run.exitCode, run.stdout + run.stderr).toBe(3);
    expect(run.report?.verdict).toBe('error');
    expect(run.report?.completed).toBe(false);
    expect(run.report?.summary.passed).toBe(0);
    expect(run.report?.errors.join('\n')).toMatch(/Timed out waiting 4s/);
    expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
  });
});
