import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse, stringify } from 'yaml';
import { PROJECT_ROOT } from '../support/run-suite.ts';
import { startExporter, type Exporter } from './exporter-in-process.ts';
import { PROMETHEUS } from './prometheus-tools.ts';
import { BROKEN_PROFILE, startTenants, type Tenants } from './tenants.ts';

// A real Prometheus (Debian's package) with the scrape configuration shipped in docs/monitoring/, its exporter
// address and intervals the only things changed: it discovers the tenants from a file, relabels each into
// /probe?target=<tenant> on the exporter (in this process), and its query API gives every tenant's
// conformance_profile_met: 1 where the tenant conforms, 0 for the profile the broken one breaks. The alert rules
// shipped are loaded and the broken tenant's fires; every query of the Grafana dashboard runs without an error.

const MONITORING = path.join(PROJECT_ROOT, 'docs', 'monitoring');
const CONFORMANT = ['tenant-eu-1', 'tenant-us-1'];
const BROKEN = ['tenant-eu-2'];
/** How long Prometheus has to discover, scrape (the first scrape of a tenant starts its run) and evaluate. */
const SETTLED_MS = 30_000;

test.describe.configure({ mode: 'default', timeout: 60_000 });

let tenants: Tenants;
let exporter: Exporter;
let prometheus: ChildProcess;
let api: string;
let logs = '';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The shipped configuration, pointed at this exporter, scraping and evaluating every second. */
function configFor(exporterAddress: string): string {
  const config = parse(readFileSync(path.join(MONITORING, 'prometheus.yml'), 'utf8'));
  config.global = { ...config.global, scrape_interval: '1s', evaluation_interval: '1s' };
  for (const job of config.scrape_configs) {
    Object.assign(job, { scrape_interval: '1s', scrape_timeout: '1s' });
    for (const rule of job.relabel_configs ?? []) if (rule.target_label === '__address__') rule.replacement = exporterAddress;
    for (const group of job.static_configs ?? []) group.targets = [exporterAddress];
  }
  return stringify(config);
}

async function query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await response.json()) as { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
  return body.data.result;
}

/** Asks until `done` holds of the answer, within SETTLED_MS. */
async function queryUntil(expr: string, done: (result: Awaited<ReturnType<typeof query>>) => boolean) {
  const deadline = Date.now() + SETTLED_MS;
  for (;;) {
    const result = await query(expr).catch(() => []);
    if (done(result) || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test.beforeAll(async () => {
  tenants = await startTenants(CONFORMANT, BROKEN);
  exporter = await startExporter(tenants.env, ['--min-interval', '1h']);
  const dir = path.join(tenants.dir, 'prometheus');
  mkdirSync(path.join(dir, 'conformance-tenants'), { recursive: true });
  writeFileSync(path.join(dir, 'conformance-tenants', 'fleet.json'), JSON.stringify([{ targets: [...CONFORMANT, ...BROKEN] }]));
  copyFileSync(path.join(MONITORING, 'alerts.yml'), path.join(dir, 'alerts.yml'));
  writeFileSync(path.join(dir, 'prometheus.yml'), configFor(new URL(exporter.url).host));
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  prometheus.stderr?.on('data', (chunk: Buffer) => void (logs += chunk.toString()));
});

test.afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  exporter?.stop();
  await exporter?.ended;
  await tenants?.close();
});

test("Prometheus scrapes every tenant through the exporter: conformance_profile_met is 1 where met, 0 for the broken tenant's broken profile", async () => {
  const expected = (tenant: string, profile: string) => (BROKEN.includes(tenant) && profile === BROKEN_PROFILE ? '0' : '1');
  const result = await queryUntil('conformance_profile_met', (r) => new Set(r.map((s) => s.metric.instance)).size === 3);
  const seen = new Set(result.map((s) => s.metric.instance));
  expect([...seen].sort(), logs).toEqual([...CONFORMANT, ...BROKEN].sort());
  for (const { metric, value } of result) {
    // The instance is the tenant Prometheus discovered, relabelled into /probe?target=: the series the exporter gave for it.
    expect(metric.target).toBe(metric.instance);
    expect(metric.job).toBe('conformance');
    expect(value[1], `${metric.instance} ${metric.profile}`).toBe(expected(metric.instance, metric.profile));
  }
  expect(result.filter((s) => s.value[1] === '0').map((s) => [s.metric.instance, s.metric.profile])).toEqual([[BROKEN[0], BROKEN_PROFILE]]);
  const own = await queryUntil('up{job="conformance-exporter"}', (r) => r.length === 1);
  expect(own.map((s) => s.value[1])).toEqual(['1']);
});

test('the shipped alert rules are loaded: the broken tenant fires ConformanceProfileNotMet, and no other alert fires', async () => {
  const firing = await queryUntil('ALERTS{alertstate="firing"}', (r) => r.length > 0);
  expect(firing.map((s) => [s.metric.alertname, s.metric.target, s.metric.profile])).toEqual([['ConformanceProfileNotMet', BROKEN[0], BROKEN_PROFILE]]);
});

test("every query of the Grafana dashboard runs against this Prometheus without an error, and the panels' own queries find the tenants", async () => {
  const dashboard = JSON.parse(readFileSync(path.join(MONITORING, 'grafana-dashboard.json'), 'utf8'));
  const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr));
  expect(exprs.length).toBeGreaterThan(5);
  // Grafana's own variables, as it replaces them: every tenant, and a rate interval.
  const written = (expr: string) => expr.replaceAll('$tenant', '.*').replaceAll('$__rate_interval', '1m');
  for (const expr of exprs) await expect(query(written(expr)), expr).resolves.toBeDefined();
  const meeting = await query(written(exprs[0]));
  expect(meeting.map((s) => s.value[1])).toEqual([String(CONFORMANT.length)]);
  const tenantQuery = dashboard.templating.list.find((v: { name: string }) => v.name === 'tenant').definition;
  expect(tenantQuery).toBe('label_values(conformance_run_timestamp_seconds, target)');
});
