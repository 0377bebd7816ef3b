import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { recordingReference, versionedReference, withServer } from '../support/hostile-servers.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// Issue 4, part 4: a run sends GET requests only, to the two documented paths, and a bounded number of them.

const DOCUMENTED = [/^\/api\/admin\/invite-link\/tokens\/[^/?#]+$/, /^\/api\/admin\/projects(\?archived=(true|false))?$/];

// One request per configured signup token, one for a made-up secret, three project lists, the two
// operations asked once without a header, once with an invalid token and once with the forbidden token,
// and the token operation once more with the token refused that operation only.
const EXPECTED_REQUESTS = REFERENCE_FIXTURES.signupTokens.length + 1 + 3 + 2 * 3 + 1;

test('a default run sends only GET requests, to the two documented paths, each once, and reports how many', async () => {
  await withServer(recordingReference(), async (server) => {
    const run = await runSuite(referenceTargetEnv(server.url));
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.report?.verdict).toBe('pass');

    expect(server.seen.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(server.seen.filter((r) => !DOCUMENTED.some((p) => p.test(r.path))).map((r) => r.path)).toEqual([]);
    const asked = server.seen.map((r) => `${r.authorization ?? '(none)'} ${r.path}`);
    expect(new Set(asked).size).toBe(asked.length);
    expect(server.seen).toHaveLength(EXPECTED_REQUESTS);

    // The run's own account of what it sent agrees with what the target received.
    const log = JSON.parse(readFileSync(path.join(run.reportDir, 'requests.json'), 'utf8')) as { requests: { method: string }[] };
    expect(log.requests).toHaveLength(server.seen.length);
    expect(run.report?.requests).toEqual({ count: server.seen.length, methods: ['GET'] });
  });
});

test("asked for the target's OpenAPI description, a run sends one more GET, to that path, without a token, and observes the drift", async () => {
  await withServer(recordingReference(), async (server) => {
    const run = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_OPENAPI_PATH: '/docs/openapi.json' }));
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const extra = server.seen.filter((r) => !DOCUMENTED.some((p) => p.test(r.path)));
    expect(extra).toEqual([{ method: 'GET', path: '/docs/openapi.json', authorization: undefined }]);
    expect(server.seen).toHaveLength(EXPECTED_REQUESTS + 1);
    const drift = run.report?.clauses.find((c) => c.id === 'projects.observe.description-drift');
    expect(drift).toMatchObject({
      status: 'observed',
      evidence: { observations: { description: { path: '/docs/openapi.json', status: 200 }, differences: [] } },
    });
  });
});

test("asked to read the product's version, a run sends one more GET, to Unleash's ui-config, with the admin token, and marks it outside the document", async () => {
  await withServer(versionedReference(), async (server) => {
    const run = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_READ_PRODUCT_VERSION: 'unleash' }));
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(server.seen.filter((r) => r.method !== 'GET')).toEqual([]);
    const extra = server.seen.filter((r) => !DOCUMENTED.some((p) => p.test(r.path)));
    expect(extra).toEqual([{ method: 'GET', path: '/api/admin/ui-config', authorization: REFERENCE_FIXTURES.adminToken }]);
    expect(server.seen).toHaveLength(EXPECTED_REQUESTS + 1);
    const log = JSON.parse(readFileSync(path.join(run.reportDir, 'requests.json'), 'utf8')) as { requests: { path: string; outsideDocument?: string }[] };
    expect(log.requests.filter((r) => r.outsideDocument !== undefined)).toEqual([
      expect.objectContaining({ path: '/api/admin/ui-config', outsideDocument: 'product-version' }),
    ]);
    // No clause quotes it: it is a fact about the product, never judged.
    expect(JSON.stringify(run.report?.clauses)).not.toContain('ui-config');
  });
});
