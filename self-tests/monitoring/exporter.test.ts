import { existsSync, mkdirSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { serve } from '../../run/commands.ts';
import { runUnderWay, startExporter, type Exporter } from './exporter-in-process.ts';
import { keepLatest } from '../../run/probe.ts';
import { BROKEN_PROFILE, samplesOf, startTenants, type Tenants } from './tenants.ts';

// The exporter, in this process: Prometheus' `/probe?target=<name>` judges a tenant of the fleet by the engine, or
// answers its result younger than --min-interval; a probe of a tenant under way joins its run; runs are bounded;
// only names of the fleet are taken, never an address; no answer holds a token; a stop lets the runs under way end.

test.describe.configure({ mode: 'default' });

/** Every body the exporter answered, for the search for tokens. */
const bodies: string[] = [];

async function get(url: string, accept?: string): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(url, accept ? { headers: { accept } } : {});
  const body = await response.text();
  bodies.push(body);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body };
}

let tenants: Tenants;
let exporter: Exporter;
test.beforeAll(async () => {
  tenants = await startTenants(['tenant-ok', 'tenant-other'], ['tenant-broken']);
  exporter = await startExporter(tenants.env, ['--min-interval', '1h', '--max-in-flight', '1', '--keep', '2']);
});
test.afterAll(async () => {
  exporter.stop();
  await exporter.ended;
  await tenants.close();
});

test('a probe judges the tenant named, and a second within --min-interval answers its result at once', async () => {
  const fresh = await get(`${exporter.url}/probe?target=tenant-ok`);
  expect(fresh.status, fresh.body).toBe(200);
  expect(fresh.type).toBe('text/plain; version=0.0.4; charset=utf-8');
  expect(samplesOf(fresh.body).get('conformance_profile_met{target="tenant-ok",profile="core"}')).toBe(1);
  const cached = await get(`${exporter.url}/probe?target=tenant-ok`, 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5');
  expect(cached.type).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
  expect(cached.body.endsWith('# EOF\n')).toBe(true);
  // The same result, not judged again (the exporter's own counts below); how fast is npm run bench:exporter's figure.
  expect(samplesOf(cached.body)).toEqual(samplesOf(fresh.body));
  const own = samplesOf((await get(`${exporter.url}/metrics`)).body);
  expect(own.get('conformance_exporter_probes_total{answer="fresh"}')).toBe(1);
  expect(own.get('conformance_exporter_probes_total{answer="cached"}')).toBe(1);
  expect(own.get('conformance_exporter_runs_total{verdict="pass"}')).toBe(1);
  expect(own.get('conformance_exporter_run_duration_seconds_count')).toBe(1);
});

test('probes of a tenant under way join its run; one of another tenant beyond --max-in-flight is refused with 503', async () => {
  const first = get(`${exporter.url}/probe?target=tenant-broken`);
  const second = get(`${exporter.url}/probe?target=tenant-broken`);
  await runUnderWay(exporter.url);
  const busy = await get(`${exporter.url}/probe?target=tenant-other`);
  expect(busy.status).toBe(503);
  expect(busy.body).toBe('1 runs are under way (--max-in-flight): try again\n');
  for (const answer of await Promise.all([first, second])) {
    expect(answer.status).toBe(200);
    expect(samplesOf(answer.body).get(`conformance_profile_met{target="tenant-broken",profile="${BROKEN_PROFILE}"}`)).toBe(0);
  }
  const own = samplesOf((await get(`${exporter.url}/metrics`)).body);
  expect(own.get('conformance_exporter_probes_total{answer="joined"}')).toBe(1);
  expect(own.get('conformance_exporter_runs_total{verdict="fail"}')).toBe(1);
  expect(own.get('conformance_exporter_refusals_total{reason="busy"}')).toBe(1);
});

test('only names of the fleet are taken: an unknown name is 404, an address 400, and no request goes to it', async () => {
  let reached = 0;
  const trap = createServer((_req, res) => {
    reached++;
    res.end();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  const address = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
  try {
    for (const [query, status] of [
      [`target=${encodeURIComponent(address)}`, 400],
      [`target=${encodeURIComponent(`//127.0.0.1:${(trap.address() as AddressInfo).port}`)}`, 400],
      ['target=tenant-nobody', 404],
      ['target=tenant-ok&target=tenant-broken', 400],
      ['', 400],
    ] as const) {
      const answer = await get(`${exporter.url}/probe?${query}`);
      expect(answer.status, query).toBe(status);
      expect(answer.body.split('\n'), query).toHaveLength(2);
      expect(answer.body).not.toContain('127.0.0.1');
      expect(answer.body).not.toContain('nobody');
    }
    expect((await fetch(`${exporter.url}/probe?target=tenant-ok`, { method: 'POST' })).status).toBe(405);
    expect((await get(`${exporter.url}/elsewhere`)).status).toBe(404);
    expect(reached).toBe(0);
  } finally {
    trap.close();
  }
});

test('no answer of the exporter holds a token', () => {
  expect(bodies.length).toBeGreaterThan(5);
  for (const secret of [REFERENCE_FIXTURES.adminToken, REFERENCE_FIXTURES.forbiddenToken, REFERENCE_FIXTURES.viewerToken, ...REFERENCE_FIXTURES.signupTokens])
    for (const body of bodies) expect(body).not.toContain(secret);
});

test("each probe's reports and bundle are kept under tenants/<name>/, latest naming the newest", () => {
  const tenant = path.join(tenants.env.CONFORMANCE_REPORT_DIR, 'tenants', 'tenant-ok');
  const latest = path.join(tenant, 'latest');
  for (const file of ['index.html', 'conformance.json', 'metrics.prom', 'evidence.tar.gz']) expect(existsSync(path.join(latest, file)), file).toBe(true);
  // Older probes beyond --keep are removed, oldest first.
  const names = ['20260101T000000Z-000001', '20260101T000000Z-000002', '20260102T000000Z-000003', readlinkSync(latest)];
  for (const name of names) mkdirSync(path.join(tenant, name), { recursive: true });
  keepLatest(tenant, 2);
  expect(readdirSync(tenant).sort()).toEqual([names[2], names[3], 'latest'].sort());
  expect(readlinkSync(latest)).toBe(names[3]);
});

test('a stop lets the run under way end and answer, then the exporter ends with 0', async () => {
  const other = await startExporter(tenants.env, ['--min-interval', '0']);
  const probe = get(`${other.url}/probe?target=tenant-other`);
  await runUnderWay(other.url);
  other.stop();
  const answer = await probe;
  expect(answer.status).toBe(200);
  expect(samplesOf(answer.body).get('conformance_verdict{target="tenant-other",verdict="pass"}')).toBe(1);
  expect(await other.ended).toBe(0);
  expect(other.lines.join('')).toContain('The exporter stopped.');
});

test('a mistake on the command line or in the settings is one line and exit code 2', async () => {
  const lines: string[] = [];
  const output = { out: (t: string) => void lines.push(t), err: (t: string) => void lines.push(t) };
  for (const args of [['--listen', ':9000'], ['--min-interval', 'soon'], ['--max-in-flight', '0'], ['http://elsewhere']]) {
    lines.length = 0;
    expect(await serve(args, { env: tenants.env, output }), args.join(' ')).toBe(2);
    expect(lines).toHaveLength(1);
  }
  lines.length = 0;
  expect(await serve([], { env: { CONFORMANCE_TARGETS: path.join(tenants.dir, 'missing.yaml') }, output })).toBe(2);
  expect(lines.join('')).toMatch(/^admin-api-conformance serve: configuration error: /);
});
