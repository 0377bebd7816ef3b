import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { neverAnswers, refusingUrl, resetMidBody, runAgainst, RUN_BOUND_MS, withServer } from '../support/hostile-servers.ts';
import { clauseWords, judgeAgainst, type JudgedRun } from '../support/judge-against.ts';
import type { SuiteRun } from '../support/run-suite.ts';

// Issue 4, part 1: a target that cannot be read at all stops the run with one message, never a hang.
// Which target stops the run is judged in this process over the real transport; runs of the engine, in this
// process too, prove the exit code, the printed message and the bounds on the run's time. The command carries
// the same (self-tests/suite/fleet-run.test.ts: tenants that never answer, held to their own deadlines).

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
  // JUnit says ERROR too: every clause an <error>, none skipped, none a failure.
  const junit = readFileSync(path.join(run.reportDir, 'junit.xml'), 'utf8');
  // Coverage counts the clauses judged: none was.
  expect(readFileSync(path.join(run.reportDir, 'index.html'), 'utf8')).toContain('0 of 37 MUST clauses judged (0%)');
  expect(junit).toMatch(/<testsuites name="admin-api-conformance" tests="46" failures="0" errors="46" skipped="0"/);
}

/** What the report of a stopped run says, as judged in this process: no clause judged, the reason as the run's error. */
function expectJudgedStopped(judged: JudgedRun, reason: RegExp): void {
  expect(judged.completed).toBe(false);
  expect(new Set(Object.values(judged.statuses))).toEqual(new Set(['errored']));
  expect(judged.error).toMatch(reason);
}

test('a port with nothing listening stops the run as errored, naming the refused connection', async () => {
  const judged = await judgeAgainst(await refusingUrl());
  expectJudgedStopped(
    judged,
    /conformance run stopped: no request to http:\/\/127\.0\.0\.1:\d+ got an answer: 127\.0\.0\.1:\d+ refused the connection: nothing listens there; check the base URL \(ECONNREFUSED\)/,
  );
});

test('a connection reset in the middle of every body stops the run as errored, naming the reset', async () => {
  await withServer(resetMidBody(), async (server) => {
    const judged = await judgeAgainst(server.url);
    expectJudgedStopped(
      judged,
      /answered no request completely: GET \/api\/admin\/\S+: the body broke off after status 200: (the target reset the connection \(ECONNRESET\)|the target closed the connection before the end of the body \(UND_ERR_SOCKET\)|the connection ended before the body reached its Content-Length)/,
    );
  });
});

test('a server that accepts and never answers is given up on after CONFORMANCE_TIMEOUT_MS per request, in the report as in process', async () => {
  await withServer(neverAnswers(), async (server) => {
    // Short, as every request waits it out: sixteen requests, four at a time.
    const variables = { CONFORMANCE_TIMEOUT_MS: '750' };
    // Side by side, so that the judge waits out the same timeouts as the run.
    const [run, judged] = await Promise.all([runAgainst(server.url, SELECTED, variables), judgeAgainst(server.url, variables)]);
    expectRunStopped(run, /no request to http:\/\/127\.0\.0\.1:\d+ got an answer: no answer within 750 ms \(CONFORMANCE_TIMEOUT_MS\)/);
    // The run's requests reached the server, besides the ones the judge sent.
    expect(server.seen.length).toBeGreaterThan(judged.recording.exchanges.length);
    expect(run.durationMs).toBeGreaterThanOrEqual(750);
    expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
    // The report says, word for word, what the judge in this process says of the same target.
    expect(judged.error).toBe(run.report?.errors[0]);
    expect(clauseWords(judged, SELECTED)).toEqual(clauseWords(run, SELECTED));
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
    expect(run.report?.errors[0]).toBe(
      'the run took longer than CONFORMANCE_RUN_TIMEOUT_MS (4000 ms) and was stopped; give a larger value for a target this slow',
    );
    expect(run.stdout).toContain('CONFORMANCE_RUN_TIMEOUT_MS (4000 ms)');
    expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
  });
});
