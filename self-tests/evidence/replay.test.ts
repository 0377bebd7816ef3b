import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../harness/files/config-error.ts';
import { loadRun } from '../../run/prepare.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { tamperedCopy, unpack, verifyCommand } from '../support/bundles.ts';
import { bundleFolder, referenceBundle, removeScratch, scratch, withFile } from '../support/in-process-bundle.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';
import { referenceTargetEnv, runSuite, type SuiteRun } from '../support/run-suite.ts';

// Issue 13, point 5 and "Done when": CONFORMANCE_REPLAY runs the whole suite on a bundle's exchanges, sends
// nothing, and gives the same conformance.json as the live run, apart from timings and saying it is a replay.

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;

test.describe.configure({ mode: 'serial' });

let live: SuiteRun;
let bundle: string;
let requestsSeen = 0;
let closeServer: () => Promise<void>;
test.beforeAll(async () => {
  const { server, url } = await startReferenceServer(0, [fault]);
  server.on('request', () => (requestsSeen += 1));
  closeServer = () => new Promise((resolve) => server.close(() => resolve()));
  live = await runSuite(referenceTargetEnv(`${url}/variants/${fault.name}`));
  bundle = path.join(live.reportDir, 'evidence.tar.gz');
});
test.afterAll(async () => closeServer());

/** A report without what differs between two runs of the same exchanges: timings, and whether it was a replay. */
const withoutTimings = (report: unknown) => JSON.parse(JSON.stringify(report, (key, value) => (key === 'durationMs' || key === 'replay' ? undefined : value)));

test("a replay sends no request and gives the live run's conformance.json, apart from timings, saying it is a replay", async () => {
  expect(live.exitCode).toBe(1);
  const before = requestsSeen;
  expect(before).toBeGreaterThan(0);
  const replay = await runSuite({ CONFORMANCE_REPLAY: bundle });
  expect(requestsSeen, 'the target was asked during the replay').toBe(before);
  expect(replay.exitCode, replay.stdout + replay.stderr).toBe(1);
  expect(reportSchemaErrors(replay.report)).toEqual([]);
  expect(withoutTimings(replay.report)).toEqual(withoutTimings(live.report));
  expect(replay.report?.replay).toEqual({ bundle });
  expect(readFileSync(path.join(replay.reportDir, 'summary.md'), 'utf8')).toContain(`This is a replay of the evidence bundle ${bundle}: no request was sent`);
  expect(replay.stdout).toContain(`replay:  a replay of the evidence bundle ${bundle}`);
  // The bundle the replay wrote verifies, and says it is a replay's.
  const verified = await verifyCommand([path.join(replay.reportDir, 'evidence.tar.gz')]);
  expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toContain(`  a replay of the evidence bundle ${bundle}: its exchanges are that bundle's, asked of no target by this run`);
});

test('a replay of a bundle whose digests do not hold, or beside a target setting, is a configuration error', async () => {
  // Read as the Playwright config reads it: configuration errors end a run there with their line (self-tests/config).
  const tampered = tamperedCopy(await unpack(bundle), 'exchanges.json', (text) => text.replace('\\"health\\":100', '\\"health\\":900'));
  const refusal = (env: Record<string, string>) => () => loadRun(env, path.dirname(bundle));
  expect(refusal({ CONFORMANCE_REPLAY: tampered })).toThrow(ConfigError);
  expect(refusal({ CONFORMANCE_REPLAY: tampered })).toThrow(`CONFORMANCE_REPLAY: the bundle ${tampered} does not hold (exchanges.json: changed`);
  const both = { CONFORMANCE_REPLAY: bundle, CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'x-token-0123' };
  expect(refusal(both)).toThrow('CONFORMANCE_REPLAY takes the target from the bundle: unset CONFORMANCE_BASE_URL');
});

test.afterAll(removeScratch);

// A replay judges only what verify would call VERIFIED: a bundle whose page was changed to say otherwise than its
// report, every digest changed to match, is refused before anything runs.
test('a replay of a bundle that does not verify, its digests resealed to match, is a configuration error naming the difference', () => {
  const good = referenceBundle();
  const page = good.get('reports/index.html')!.toString('utf8');
  const changed = bundleFolder(withFile(good, 'reports/index.html', page.replace(/>PASS</g, '>FAIL<')));
  const run = () => loadRun({ CONFORMANCE_REPLAY: changed, CONFORMANCE_REPORT_DIR: path.join(scratch(), 'report') }, os.tmpdir());
  expect(run).toThrow(ConfigError);
  expect(run).toThrow(
    `CONFORMANCE_REPLAY: the bundle ${changed} does not verify (reports/index.html: it does not say what the bundle's conformance.json says)`,
  );
});

test('a bundle whose base URL carries a user, a password or a query, which no run writes, is not replayed, and they are not printed', () => {
  const good = referenceBundle();
  const exchanges = JSON.parse(good.get('exchanges.json')!.toString('utf8'));
  exchanges.facts.target.baseUrl = 'http://suite:s3cret-pass@reference.invalid/?token=leaked-value';
  const forged = bundleFolder(withFile(good, 'exchanges.json', JSON.stringify(exchanges)));
  const run = () => loadRun({ CONFORMANCE_REPLAY: forged, CONFORMANCE_REPORT_DIR: path.join(scratch(), 'report') }, os.tmpdir());
  expect(run).toThrow("CONFORMANCE_REPLAY: the bundle's base URL carries a user, a password, a query or a fragment, which no run writes; it is not replayed");
});
