import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../harness/files/config-error.ts';
import { loadRun } from '../../harness/run/run-targets.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { tamperedCopy, unpack } from '../support/bundles.ts';
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
