import { expect, test } from '@playwright/test';
import { makeThrowawayPki, type ThrowawayPki } from '../support/certificates.ts';
import { runAgainst, withServer } from '../support/hostile-servers.ts';
import { statusesOf, type SuiteRun } from '../support/run-suite.ts';
import { forwardingProxy, httpsTarget } from '../support/staging-servers.ts';

// Issue 12, transport: staging networks, the whole run. The settings travel from the variables through the
// run's configuration to every request of the plan (the engine, in this process: it reads the variables as the
// command reads its environment, the proxies too). NODE_EXTRA_CA_CERTS, which Node itself reads as a process
// starts, is a tenant's of self-tests/suite/fleet-run.test.ts.

const SELECTED = [
  'projects.response.json',
  'projects.list.required',
  'signup-token.response.json',
  'auth.projects.missing-header',
  'auth.signup-token.forbidden',
];
/** A tunnel and two handshakes per request on a machine busy with other self-tests: room, though nothing here stalls. */
const ROOMY = { CONFORMANCE_TIMEOUT_MS: '5000' };

let pki: ThrowawayPki;
test.beforeAll(async () => {
  pki = await makeThrowawayPki();
});
test.afterAll(() => pki.remove());

function expectPassed(run: SuiteRun): void {
  // A few clauses only, so the run is partial (exit code 3); every clause it judged passed.
  expect(run.exitCode, run.stdout + run.stderr).toBe(3);
  expect(run.report?.verdict).toBe('partial');
  expect(statusesOf(run.report)).toMatchObject(Object.fromEntries(SELECTED.map((id) => [id, 'passed'])));
}

test("a run through a forwarding proxy to a gateway with a private authority's certificate, which demands a client certificate, passes", async () => {
  await withServer(httpsTarget(pki.server, pki.ca.cert), (gateway) =>
    withServer(forwardingProxy(), async (proxy) => {
      const run = await runAgainst(gateway.url, SELECTED, {
        ...ROOMY,
        HTTPS_PROXY: proxy.url,
        CONFORMANCE_CA_FILE: pki.caFile,
        CONFORMANCE_CLIENT_CERT: pki.client.certFile,
        CONFORMANCE_CLIENT_KEY: pki.client.keyFile,
      });
      expectPassed(run);
      // Every request of the plan went through the proxy, one tunnel each, and showed the client certificate.
      expect(gateway.seen.length).toBeGreaterThan(10);
      expect(proxy.seen.map((r) => `${r.method} ${r.path}`)).toEqual(gateway.seen.map(() => `CONNECT ${new URL(gateway.url).host}`));
      expect(new Set(gateway.clientNames)).toEqual(new Set(['conformance-suite']));
    }),
  );
});
