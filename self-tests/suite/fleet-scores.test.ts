import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, test } from '@playwright/test';
import { THREE_FAILURES } from '../../bench/variants.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import type { CtrfReport } from '../../reporters/ctrf.ts';
import { renderMatrixMarkdown } from '../../reporters/matrix-render.ts';
import type { Score } from '../../reporters/scores.ts';
import { runConformance } from '../../run/index.ts';
import { ctrfSchemaErrors } from '../support/ctrf-schema.ts';

// A fleet with an inventory, judged in process: 24 tenants on two loopback origins, tagged by region and tier,
// four of them failing three clauses. Each claimed profile's score is the share of the tenants that exercised it
// that meet it, overall and by tag; a profile none exercised (no signup token was given) has insufficient data.
// The tenants behind one origin share its budget of requests in flight, counted at the origin itself; and a
// tenant's report is let go once written.

const TENANTS = 24;
const FAILING_EVERY = 6;
const ORIGIN_CONCURRENCY = 3;
test.describe.configure({ mode: 'serial', timeout: 120_000 });

/** A loopback origin in front of the reference server that counts the requests in flight to it, and the most at once. */
async function countingOrigin(upstream: string): Promise<{ server: Server; url: string; most: () => number }> {
  let inFlight = 0;
  let most = 0;
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    const done = () => void inFlight--;
    const forward = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res).once('finish', done);
    });
    forward.once('error', () => {
      done();
      res.destroy();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, most: () => most };
}

const tagsOf = (i: number) => ({ region: i % 2 === 0 ? 'eu' : 'us', tier: i < TENANTS / 2 ? 'gold' : 'free' });
const failing = (i: number) => i % FAILING_EVERY === FAILING_EVERY - 1;

let reference: Awaited<ReturnType<typeof startReferenceServer>>;
let origin: Awaited<ReturnType<typeof countingOrigin>>;
let dir: string;
let result: Awaited<ReturnType<typeof runConformance>>;
let alive: () => number;

test.beforeAll(async () => {
  reference = await startReferenceServer(0, [THREE_FAILURES]);
  origin = await countingOrigin(reference.url);
  dir = mkdtempSync(path.join(os.tmpdir(), 'fleet-scores-'));
  const lines = Array.from({ length: TENANTS }, (_, i) => {
    // The faithful tenants are all behind the counting origin; the failing ones behind the reference server's.
    const baseUrl = failing(i) ? `${reference.url}/variants/${THREE_FAILURES.name}` : origin.url;
    return `  - { name: tenant-${i}, baseUrl: "${baseUrl}", tags: ${JSON.stringify(tagsOf(i))} }`;
  });
  const file = path.join(dir, 'fleet.yaml');
  writeFileSync(
    file,
    `defaults: { adminTokenFrom: CONFORMANCE_TOKEN_ADMIN, forbiddenTokenFrom: CONFORMANCE_TOKEN_FORBIDDEN, tags: { plan: team } }\ntargets:\n${lines.join('\n')}\n`,
  );
  // Each report handed to onTarget is watched: once written, none may be held by the run.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const watched: WeakRef<ConformanceReport>[] = [];
  alive = () => {
    gc();
    return watched.filter((w) => w.deref() !== undefined).length;
  };
  result = await runConformance({
    targets: [file],
    reportDir: path.join(dir, 'report'),
    env: {
      CONFORMANCE_TOKEN_ADMIN: REFERENCE_FIXTURES.adminToken,
      CONFORMANCE_TOKEN_FORBIDDEN: REFERENCE_FIXTURES.forbiddenToken,
      CONFORMANCE_ORIGIN_CONCURRENCY: String(ORIGIN_CONCURRENCY),
      CONFORMANCE_CONCURRENCY: '8',
    },
    onTarget: (target) => void watched.push(new WeakRef(target.report)),
  });
});

test.afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([reference, origin].map((s) => new Promise((resolve) => s?.server.close(resolve))));
});

/** The score a profile has over the reports given, counted here from each target's own conformance.json. */
function expectedScore(reports: ConformanceReport[], profile: string): Score {
  const statuses = reports.map((r) => r.claim.byProfile.find((p) => p.name === profile)!.status);
  const met = statuses.filter((s) => s === 'met').length;
  const judged = statuses.filter((s) => s === 'met' || s === 'violated' || s === 'errored' || s === 'partial').length;
  return judged === 0 ? { met, judged, status: 'insufficient-data' } : { met, judged, share: met / judged, status: 'scored' };
}

test('each claimed profile is scored by the share of the tenants that meet it, overall and by each tag, from their own reports', () => {
  expect(result.exitCode).toBe(1);
  const reports = result.targets.map((t) => t.report);
  expect(reports.map((r) => r.tags)).toEqual(Array.from({ length: TENANTS }, (_, i) => ({ plan: 'team', ...tagsOf(i) })));
  const scores = result.matrix!.scores!;
  expect(scores.map((s) => s.profile)).toEqual(reports[0].claim.profiles);
  for (const score of scores) {
    const { byTag, profile, ...overall } = score;
    expect(overall, profile).toEqual(expectedScore(reports, profile));
    for (const tag of ['region', 'tier', 'plan'])
      for (const [value, got] of Object.entries(byTag[tag]))
        expect(got, `${profile} by ${tag}=${value}`).toEqual(
          expectedScore(
            reports.filter((r) => r.tags?.[tag] === value),
            profile,
          ),
        );
    expect(Object.keys(byTag).sort()).toEqual(['plan', 'region', 'tier']);
  }
  // The failing tenants break projects-data: 4 of 24 fail it, all of them in the free tier.
  const projects = scores.find((s) => s.profile === 'projects-data')!;
  expect(projects).toMatchObject({ met: TENANTS - 4, judged: TENANTS, status: 'scored' });
  expect(projects.byTag.tier.gold).toMatchObject({ met: 10, judged: 12, share: 10 / 12 });
  expect(projects.byTag.tier.free).toMatchObject({ met: 10, judged: 12 });
});

test('a profile no tenant exercised has insufficient data, never a share, on the page and in summary.md', () => {
  // No signup token was given: the signup-tokens profile was exercised by none.
  const signup = result.matrix!.scores!.find((s) => s.profile === 'signup-tokens')!;
  expect(signup).toMatchObject({ met: 0, judged: 0, status: 'insufficient-data' });
  expect(signup.share).toBeUndefined();
  expect(signup.byTag.region.eu.status).toBe('insufficient-data');
  const markdown = readFileSync(path.join(dir, 'report', 'summary.md'), 'utf8');
  expect(markdown).toBe(renderMatrixMarkdown(result.matrix!));
  expect(markdown).toContain('- `signup-tokens`: insufficient data: no target exercised it');
  expect(markdown).toContain('- `projects-data`: 83.3 % (20 of 24)');
  const page = readFileSync(path.join(dir, 'report', 'index.html'), 'utf8');
  expect(page).toContain('data-profile="signup-tokens" data-status="insufficient-data"');
  expect(JSON.parse(readFileSync(path.join(dir, 'report', 'conformance.json'), 'utf8')).scores).toEqual(result.matrix!.scores);
});

test('the tenants behind one origin never have more requests in flight to it than its budget', () => {
  // Twenty faithful tenants, eight requests each at once, all behind one origin: unbounded, dozens at once.
  expect(origin.most()).toBeLessThanOrEqual(ORIGIN_CONCURRENCY);
  expect(origin.most()).toBeGreaterThan(1);
});

test("a tenant's report is let go once written: the run holds none of them", () => {
  expect(alive()).toBe(0);
  // Read back from its file when asked, a target's report is still there for the caller.
  expect(result.targets[3].report.target.name).toBe('tenant-3');
});

test("a fleet file's tags are checked where it is read: strings, bounded, the damaged one named, no value quoted", async () => {
  const cases = [
    ['{ region: [eu] }', 'targets.0.tags.region'],
    ['{ "bad name": x }', 'targets.0.tags'],
    [`{ ${Array.from({ length: 17 }, (_, i) => `t${i}: x`).join(', ')} }`, 'targets.0.tags'],
    [`{ long: "${'x'.repeat(129)}" }`, 'targets.0.tags.long'],
  ];
  for (const [tags, where] of cases) {
    const file = path.join(dir, 'tagged.yaml');
    writeFileSync(file, `targets:\n  - { name: a, baseUrl: "${reference.url}", adminTokenFrom: CONFORMANCE_TOKEN_ADMIN, tags: ${tags} }\n`);
    const refused = await runConformance({
      targets: [file],
      reportDir: path.join(dir, 'refused'),
      env: { CONFORMANCE_TOKEN_ADMIN: REFERENCE_FIXTURES.adminToken },
    });
    expect(refused.exitCode, tags).toBe(2);
    expect(refused.reason, tags).toContain(where);
    expect(refused.reason).not.toContain('x'.repeat(129));
  }
});

// Written target by target (reporters/junit-parts.ts, ctrf-parts.ts), as the reports are let go: each file holds every
// tenant's tests, counted as each tenant's own report counts them, and CTRF's file is what its schema says it is.
test("a fleet's junit.xml and ctrf.json, written target by target, hold every tenant's tests and count them as the tenants' own files do", () => {
  const reportDir = path.join(dir, 'report');
  const ctrf = JSON.parse(readFileSync(path.join(reportDir, 'ctrf.json'), 'utf8')) as CtrfReport;
  expect(ctrfSchemaErrors(ctrf)).toEqual([]);
  const own = result.targets.map((t) => (JSON.parse(readFileSync(path.join(t.reportDir, 'ctrf.json'), 'utf8')) as CtrfReport).results.summary);
  const sum = (key: 'tests' | 'passed' | 'failed' | 'skipped' | 'other') => own.reduce((n, s) => n + s[key], 0);
  expect(ctrf.results.tests).toHaveLength(sum('tests'));
  for (const key of ['tests', 'passed', 'failed', 'skipped', 'other'] as const) expect(ctrf.results.summary[key], key).toBe(sum(key));
  expect(ctrf.results.tests.filter((t) => t.name.startsWith('tenant-0: '))).toHaveLength(own[0].tests);
  expect(ctrf.results.extra?.['admin-api-conformance.verdict']).toBe(result.verdict);
  const junit = readFileSync(path.join(reportDir, 'junit.xml'), 'utf8');
  expect(junit.match(/<testsuite /g)).toHaveLength(TENANTS);
  expect(readdirSync(reportDir).filter((f) => f.includes('.parts') || f.endsWith('.part'))).toEqual([]);
});
