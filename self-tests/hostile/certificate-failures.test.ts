import { expect, test } from '@playwright/test';
import { makeThrowawayPki, type ThrowawayPki } from '../support/certificates.ts';
import { runAgainst, RUN_BOUND_MS, withServer } from '../support/hostile-servers.ts';
import { httpsTarget } from '../support/staging-servers.ts';

// Issue 12, transport: say what happened, the whole run. A certificate nobody configured the suite to
// trust stops the run with one line that says so and names the setting that fixes it. Runs of the engine, in
// this process; the command carries the same for a tenant of self-tests/suite/fleet-run.test.ts.

let pki: ThrowawayPki;
test.beforeAll(async () => {
  pki = await makeThrowawayPki();
});
test.afterAll(() => pki.remove());

test('a target whose certificate an unknown authority signed stops the run with one line pointing at CONFORMANCE_CA_FILE', async () => {
  await withServer(httpsTarget(pki.server), async (target) => {
    const run = await runAgainst(target.url, ['projects.response.json', 'auth.projects.missing-header']);
    const output = run.stdout + run.stderr;
    expect(run.exitCode, output).toBe(3);
    expect(run.report?.verdict).toBe('error');
    expect(run.report?.clauses.every((c) => c.status === 'errored')).toBe(true);
    const line = `conformance run stopped: no request to ${target.url} got an answer: the certificate of ${new URL(target.url).host} is signed by an unknown authority: see CONFORMANCE_CA_FILE (UNABLE_TO_VERIFY_LEAF_SIGNATURE)`;
    expect(run.report?.errors.join('\n')).toContain(line);
    expect(output).toContain(line);
    expect(output).not.toContain('could not be reached');
    expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(target.seen).toEqual([]);
    expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
  });
});

// A verdict on a deployment whose certificate no one checked would not be about that deployment: the suite
// verifies certificates whatever NODE_TLS_REJECT_UNAUTHORIZED says; a private authority is CONFORMANCE_CA_FILE.
// Node reads the variable from its own environment whenever a connection is made: set here, in this process,
// for as long as the run lasts, as the command's process has it from the start.
test('NODE_TLS_REJECT_UNAUTHORIZED=0 does not make the suite accept an expired certificate: no pass, one line', async () => {
  await withServer(httpsTarget(pki.expired), async (target) => {
    const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      const run = await runAgainst(target.url, ['projects.response.json'], { NODE_TLS_REJECT_UNAUTHORIZED: '0', CONFORMANCE_CA_FILE: pki.caFile });
      expect(run.exitCode, run.stdout + run.stderr).toBe(3);
      expect(run.report?.verdict).toBe('error');
      expect(run.report?.errors.join('\n')).toContain('expired');
    } finally {
      if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
    }
  });
});
