import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { renderReportMetrics } from '../../reporters/metrics.ts';
import { labelValue } from '../../reporters/metrics-text.ts';
import { ScoreTally, type Scored } from '../../reporters/scores.ts';
import { runConformance } from '../../run/index.ts';
import { promtool } from './prometheus-tools.ts';
import { BROKEN_PROFILE, samplesOf, startTenants, type Tenants } from './tenants.ts';

// Every run writes metrics.prom, one for the run: per tenant and claimed profile whether it is met, the verdict,
// when it ran and last had a verdict, its known deviations and requests; per clause only when asked for. promtool,
// Prometheus' own checker, reads it.

test.describe.configure({ mode: 'default' });

let tenants: Tenants;
let reports: ConformanceReport[];
let written: string;
test.beforeAll(async () => {
  tenants = await startTenants(['tenant-ok'], ['tenant-broken']);
  const run = await runConformance({ env: tenants.env });
  expect(run.exitCode).toBe(1);
  reports = run.targets.map((t) => t.report);
  written = readFileSync(path.join(run.reportDir!, 'metrics.prom'), 'utf8');
});
test.afterAll(() => tenants.close());

test('a fleet run writes one metrics.prom, whose profile_met is 1 where a profile is met and 0 where it is broken', () => {
  const samples = samplesOf(written);
  for (const profile of reports[0].claim.profiles) {
    expect(samples.get(`conformance_profile_met{target="tenant-ok",profile="${profile}"}`), profile).toBe(1);
    expect(samples.get(`conformance_profile_met{target="tenant-broken",profile="${profile}"}`), profile).toBe(profile === BROKEN_PROFILE ? 0 : 1);
  }
  expect(samples.get('conformance_verdict{target="tenant-ok",verdict="pass"}')).toBe(1);
  expect(samples.get('conformance_verdict{target="tenant-broken",verdict="fail"}')).toBe(1);
  expect(samples.get('conformance_verdict{target="tenant-broken",verdict="pass"}')).toBe(0);
  // When the run took its answers: its report's start, in seconds.
  const ran = samples.get('conformance_run_timestamp_seconds{target="tenant-ok"}')!;
  expect(ran).toBe(Date.parse(reports.find((r) => r.target.name === 'tenant-ok')!.startedAt) / 1000);
  expect(samples.get('conformance_last_verdict_timestamp_seconds{target="tenant-ok"}')).toBe(ran);
  expect(samples.get('conformance_run_requests{target="tenant-broken"}')).toBeGreaterThan(0);
  expect(written.endsWith('# EOF\n')).toBe(true);
  expect([...samples.keys()].some((k) => k.startsWith('conformance_clause_status'))).toBe(false);
});

test('metrics.prom holds no token and no base URL', () => {
  for (const secret of [REFERENCE_FIXTURES.adminToken, REFERENCE_FIXTURES.forbiddenToken, ...REFERENCE_FIXTURES.signupTokens])
    expect(written).not.toContain(secret);
  expect(written).not.toContain('http://');
});

test('promtool reads both formats without a complaint', () => {
  for (const format of ['openmetrics', 'text'] as const) {
    const checked = promtool(['check', 'metrics'], renderReportMetrics(reports, { clauses: true }, format));
    expect(checked, format).toEqual({ status: 0, output: '' });
  }
  // promtool is no rubber stamp: a metric name with a dash is refused.
  expect(promtool(['check', 'metrics'], 'conformance-bad 1\n').status).not.toBe(0);
});

test('per clause only when asked for: CONFORMANCE_METRICS_CLAUSES=true adds each clause of each tenant', async () => {
  const run = await runConformance({ env: { ...tenants.env, CONFORMANCE_METRICS_CLAUSES: 'true', CONFORMANCE_REPORT_DIR: path.join(tenants.dir, 'clauses') } });
  const samples = samplesOf(readFileSync(path.join(run.reportDir!, 'metrics.prom'), 'utf8'));
  const clauses = [...samples.keys()].filter((k) => k.startsWith('conformance_clause_status{'));
  expect(clauses).toHaveLength(reports[0].clauses.length * 2);
  expect(samples.get(`conformance_clause_status{target="tenant-broken",clause="signup-token.state.expired-not-enabled",status="failed"}`)).toBe(1);
  const refused = await runConformance({
    env: { ...tenants.env, CONFORMANCE_METRICS_CLAUSES: 'some', CONFORMANCE_REPORT_DIR: path.join(tenants.dir, 'refused') },
  });
  expect(refused.exitCode).toBe(2);
  expect(refused.reason).toContain('CONFORMANCE_METRICS_CLAUSES must be true or false');
});

test('label values are escaped as the formats say, tags become tag_ labels, deviations their expiry', () => {
  const report = structuredClone(reports[1]) as ConformanceReport & { tags?: Record<string, string> };
  report.tags = { region: 'eu "west"\\1\nnext', 'plan.tier': 'gold' };
  report.product = { name: 'Unleash', version: 'https://user:secret@host/8.2' };
  report.clauses[0].deviation = { clause: report.clauses[0].id, reason: 'vendor', expires: '2030-01-02', state: 'applied' };
  const text = renderReportMetrics([report]);
  expect(text).toContain('conformance_target_info{target="tenant-broken",tag_region="eu \\"west\\"\\\\1\\nnext",tag_plan_tier="gold"} 1');
  expect(text).not.toContain('secret');
  expect(samplesOf(text).get(`conformance_deviation_expiry_timestamp_seconds{target="tenant-broken",clause="${report.clauses[0].id}"}`)).toBe(
    Date.UTC(2030, 0, 2) / 1000,
  );
  expect(samplesOf(text).get('conformance_known_deviations{target="tenant-broken"}')).toBe(1);
  expect(promtool(['check', 'metrics'], renderReportMetrics([report], {}, 'text')).status).toBe(0);
  expect(labelValue('\uD800')).toBe('\uFFFD');
});

test("a run of several targets gives each claimed profile's score: its ratio, the targets met and judged, and whether data is insufficient", () => {
  const samples = samplesOf(written);
  for (const profile of reports[0].claim.profiles) {
    const broken = profile === BROKEN_PROFILE;
    expect(samples.get(`conformance_profile_score_ratio{profile="${profile}"}`), profile).toBe(broken ? 0.5 : 1);
    expect(samples.get(`conformance_profile_targets{profile="${profile}",state="met"}`), profile).toBe(broken ? 1 : 2);
    expect(samples.get(`conformance_profile_targets{profile="${profile}",state="judged"}`), profile).toBe(2);
    expect(samples.get(`conformance_profile_insufficient_data{profile="${profile}"}`), profile).toBe(0);
  }
});

test('a score by tag has its own family; where no target exercised a profile its ratio is absent, never 0 or 1, and insufficient_data is 1', () => {
  const [ok, broken] = reports;
  const tagged = (report: Scored, tier: string): Scored => ({ ...report, tags: { tier, region: 'eu' } });
  // A profile claimed and exercised by no target: every target's status for it is not-exercised.
  const unexercised = (report: ConformanceReport) => ({
    ...report,
    claim: { ...report.claim, byProfile: [...report.claim.byProfile, { name: 'future', claimed: true, status: 'not-exercised' as const }] },
  });
  const tally = new ScoreTally();
  for (const report of [tagged(unexercised(ok), 'gold'), tagged(unexercised(broken), 'free')]) tally.add(report);
  const text = renderReportMetrics([ok, broken], { scores: tally.scores() });
  const samples = samplesOf(text);
  expect(samples.get(`conformance_profile_tag_score_ratio{profile="${BROKEN_PROFILE}",tag="tier",value="free"}`)).toBe(0);
  expect(samples.get(`conformance_profile_tag_score_ratio{profile="${BROKEN_PROFILE}",tag="tier",value="gold"}`)).toBe(1);
  expect(samples.get(`conformance_profile_tag_score_ratio{profile="${BROKEN_PROFILE}",tag="region",value="eu"}`)).toBe(0.5);
  expect(samples.get(`conformance_profile_tag_targets{profile="${BROKEN_PROFILE}",tag="region",value="eu",state="judged"}`)).toBe(2);
  expect([...samples.keys()].filter((k) => k.includes('profile="future"') && k.includes('score_ratio'))).toEqual([]);
  expect(samples.get('conformance_profile_insufficient_data{profile="future"}')).toBe(1);
  expect(samples.get('conformance_profile_targets{profile="future",state="judged"}')).toBe(0);
  // No family mixes the fleet with its parts: the overall ratio has no tag label.
  expect([...samples.keys()].filter((k) => k.startsWith('conformance_profile_score_ratio{') && k.includes('tag='))).toEqual([]);
  for (const format of ['openmetrics', 'text'] as const)
    expect(promtool(['check', 'metrics'], renderReportMetrics([ok, broken], { scores: tally.scores() }, format)), format).toEqual({ status: 0, output: '' });
});
