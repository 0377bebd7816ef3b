import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadChecks } from '../../checks/index.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadProfiles } from '../../harness/contracts/profiles.ts';
import { judge } from '../../harness/judging/judge.ts';
import { runsOf } from '../../harness/judging/verdicts.ts';
import { fleetReplay } from '../../run/replays.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import type { Variant } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { buildConformanceReport, type ConformanceReport } from '../../reporters/conformance-result.ts';
import { consoleLine } from '../../reporters/console-summary.ts';
import { failureSignatures } from '../../reporters/fleet.ts';
import { buildMatrixReport, MatrixTally } from '../../reporters/matrix-result.ts';
import { renderMatrixHtml, renderMatrixMarkdown } from '../../reporters/matrix-render.ts';
import { leaveChromium, sharedChromium } from '../support/browser.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';
import { runMeta } from '../support/run-meta.ts';

// A fleet's tests, signatures and page, as data: what one test of a clause replays for every target, the
// failures the targets share grouped once, and a page of 1,000 targets a person can sort, filter and read.

const catalogue = loadCatalogue();
const fault = (name: string): Variant => FAULTS.find((f) => f.name === name)!;

/** The report this suite gives the reference target with `variant`, as a fleet's target `name` on `product`. */
function reportOf(variant: Variant | undefined, name: string, version?: string, now = Date.now()): ConformanceReport {
  const secrets = createSecrets(REFERENCE_INPUT);
  const runs = runsOf(catalogue, judge(recordInProcess(variant, REFERENCE_INPUT, now), REFERENCE_INPUT, loadChecks()), secrets);
  const product = version ? { name: 'Unleash', version } : undefined;
  return buildConformanceReport(
    catalogue,
    runs,
    runMeta({ target: { name, baseUrl: `https://${name}.example.com`, embedded: false }, product, profiles: loadProfiles() }),
  );
}

/** A copy of `report` as another target's: a fleet of tenants that answer alike. */
const renamed = (report: ConformanceReport, name: string): ConformanceReport => ({
  ...report,
  target: { ...report.target, name, baseUrl: `https://${name}.example.com` },
});

test("a fleet's test of a clause fails where any target fails it, naming the first few and counting the rest", () => {
  const failing = Array.from({ length: 7 }, (_, i) => ({ target: `f${i}`, replay: { status: 'failed' as const, message: `violated at /projects/${i}` } }));
  const replay = fleetReplay([
    { target: 'ok', replay: { status: 'passed' } },
    ...failing,
    { target: 'down', replay: { status: 'errored', message: 'no answer' } },
  ]);
  expect(replay.status).toBe('failed');
  expect(replay.message?.split('\n')).toEqual([
    "7 of 9 targets: failed (each target's report has its detail)",
    'f0: violated at /projects/0',
    'f1: violated at /projects/1',
    'f2: violated at /projects/2',
    'f3: violated at /projects/3',
    'f4: violated at /projects/4',
    '…and 2 more',
  ]);
});

test("a fleet's test errors where no target fails and one errored, expects a failure for known deviations alone, passes where one passed", () => {
  const of = (...statuses: ('passed' | 'errored' | 'known-deviation' | 'not-exercised' | 'not-judged' | 'observed')[]) =>
    fleetReplay(statuses.map((status, i) => ({ target: `t${i}`, replay: { status, message: status } }))).status;
  expect(of('passed', 'errored', 'known-deviation')).toBe('errored');
  expect(of('passed', 'known-deviation')).toBe('known-deviation');
  expect(of('not-exercised', 'passed')).toBe('passed');
  expect(of('not-judged', 'not-exercised')).toBe('not-judged');
  expect(of('observed', 'observed')).toBe('observed');
});

test('failures are grouped by clause, place (array positions aside), requirement and product version, the widest first', () => {
  const broken = reportOf(fault('expired-token-enabled'), 'a', '8.1.0');
  const health = reportOf(fault('project-health-above-100'), 'x', '8.1.0');
  const signatures = failureSignatures([
    broken,
    // Judged an hour earlier: the moments its violation names differ.
    reportOf(fault('expired-token-enabled'), 'b', '8.1.0', Date.now() - 3_600_000),
    renamed(broken, 'c'),
    { ...renamed(broken, 'd'), product: { name: 'Unleash', version: '8.2.0' } },
    health,
    reportOf(undefined, 'faithful', '8.1.0'),
  ]);
  expect(signatures[0]).toMatchObject({ clause: 'signup-token.state.expired-not-enabled', product: 'Unleash 8.1.0', targets: ['a', 'b', 'c'] });
  expect(signatures.filter((s) => s.clause === 'signup-token.state.expired-not-enabled').map((s) => [s.product, s.targets])).toEqual([
    ['Unleash 8.1.0', ['a', 'b', 'c']],
    ['Unleash 8.2.0', ['d']],
  ]);
  // Moments differ between any two targets; the requirement is the same.
  expect(signatures[0].required).toBe('false, since expiresAt <date-time> lies before the request (<date-time>)');
  // The health of every project over 100 is one place: /projects/*/health, not one signature per project.
  const healthPlaces = signatures.filter((s) => s.targets.includes('x')).map((s) => s.pointer);
  expect(healthPlaces.length).toBeGreaterThan(0);
  expect(healthPlaces.every((p) => !/\/\d+(\/|$)/.test(p))).toBe(true);
  expect(signatures.some((s) => s.targets.includes('faithful'))).toBe(false);
});

test("a fleet's matrix is the same whatever order its targets' reports came in: rows and each signature's targets in the run's order", () => {
  const broken = reportOf(fault('expired-token-enabled'), 'a', '8.1.0');
  const reports = [broken, renamed(broken, 'b'), reportOf(undefined, 'c', '8.1.0'), renamed(broken, 'd')];
  const tallied = (order: number[]) => {
    const tally = new MatrixTally(reports.length);
    for (const i of order) tally.add(i, reports[i], `targets/${reports[i].target.name}/index.html`);
    return tally.matrix(0);
  };
  const inOrder = tallied([0, 1, 2, 3]);
  expect(inOrder.signatures?.[0].targets).toEqual(['a', 'b', 'd']);
  expect(tallied([3, 2, 0, 1])).toEqual(inOrder);
});

test('the page of a fleet of 1,000 targets is under 5 MB, shows its shared failures once, and sorts and filters its rows', async () => {
  const faithful = reportOf(undefined, 'faithful', '8.2.0');
  const broken = reportOf(fault('expired-token-enabled'), 'broken', '8.1.0');
  const reports = Array.from({ length: 1000 }, (_, i) => {
    const name = `tenant-${String(i + 1).padStart(4, '0')}`;
    return { report: renamed(i % 25 === 0 ? broken : faithful, name), path: `targets/${name}/index.html` };
  });
  const matrix = buildMatrixReport(reports, 1000);
  const page = renderMatrixHtml(matrix);
  expect(Buffer.byteLength(page)).toBeLessThan(5 * 2 ** 20);
  expect(renderMatrixMarkdown(matrix)).toContain('- **40 targets on Unleash 8.1.0 fail** `signup-token.state.expired-not-enabled`');
  const one = buildMatrixReport([reports[0], { report: renamed(faithful, 'other'), path: 'targets/other/index.html' }], 1);
  expect(renderMatrixMarkdown(one)).toContain('- **1 target on Unleash 8.1.0 fails** `signup-token.state.expired-not-enabled`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fleet-page-'));
  const browser = await sharedChromium();
  try {
    const file = path.join(dir, 'index.html');
    writeFileSync(file, page);
    expect(statSync(file).size).toBe(Buffer.byteLength(page));
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await tab.goto(`file://${file}`);
    await expect(tab.getByTestId('signature')).toHaveCount(matrix.signatures!.length);
    await expect(tab.getByTestId('signature').first()).toContainText('40 targets on Unleash 8.1.0 fail signup-token.state.expired-not-enabled');
    await expect(tab.getByTestId('target-row')).toHaveCount(1000);
    // The failing tenants come first, before any sorting.
    await expect(tab.getByTestId('target-verdict').first()).toHaveText('FAIL');
    await expect(tab.getByTestId('target-verdict').nth(40)).toHaveText('PASS');
    // No column per target: the page is as wide as the window, whatever the fleet.
    expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect((await tab.screenshot()).byteLength).toBeGreaterThan(10_000);
    await tab.getByLabel('verdict').selectOption('FAIL');
    await expect(tab.locator('[data-testid=target-row]:visible')).toHaveCount(40);
    await tab.getByLabel('verdict').selectOption('');
    await tab.getByLabel('filter the targets').fill('tenant-0026');
    await expect(tab.locator('[data-testid=target-row]:visible')).toHaveCount(1);
    await expect(tab.locator('#shown')).toHaveText('1 of 1000 targets shown');
    await tab.getByLabel('filter the targets').fill('');
    // Sorted by what fails, once: the passing tenants come first; twice: the failing ones again.
    await tab.locator('#targets th', { hasText: 'what fails' }).click();
    await expect(tab.getByTestId('target-verdict').first()).toHaveText('PASS');
    await tab.locator('#targets th', { hasText: 'what fails' }).click();
    await expect(tab.getByTestId('target-verdict').first()).toHaveText('FAIL');
  } finally {
    await leaveChromium(browser);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the fleet page lists failures first, then no verdict, partial and pass; says why an unreachable target has none; offers the rows' own words", async () => {
  const pass = reportOf(undefined, 'passing');
  const fail = reportOf(fault('expired-token-enabled'), 'failing');
  const down = buildConformanceReport(
    catalogue,
    [],
    runMeta({
      target: { name: 'down', baseUrl: 'http://down.invalid', embedded: false },
      runErrors: ['http://down.invalid refused the connection: nothing listens there'],
      profiles: loadProfiles(),
    }),
  );
  const stopped = { ...renamed(pass, 'stopped'), verdict: 'incomplete' as const, interrupted: true as const };
  const matrix = buildMatrixReport(
    [pass, down, stopped, fail].map((report) => ({ report, path: `${report.target.name}/index.html` })),
    1,
  );
  const page = renderMatrixHtml(matrix);
  const rows = [...page.matchAll(/data-testid="target-row" data-verdict="([A-Z]+)"/g)].map((m) => m[1]);
  expect(rows).toEqual(['FAIL', 'ERROR', 'INTERRUPTED', 'PASS']);
  // The unreachable target's line says why, and lists none of the clauses it could not judge.
  const downRow = /<tr data-testid="target-row" data-verdict="ERROR"[\s\S]*?<\/tr>/.exec(page)![0];
  expect(downRow).toContain('refused the connection');
  expect(downRow).not.toContain('<code>');
  // The filter offers what the rows say: INTERRUPTED, never a verdict no row shows.
  expect([...page.matchAll(/<option value="([A-Z]+)">/g)].map((m) => m[1])).toEqual(['FAIL', 'ERROR', 'INTERRUPTED', 'PASS']);
  expect(page).toContain('1 target that states no product fails');
  // Its terminal line too: why, not the clauses it could not judge.
  expect(consoleLine(down, 'down/index.html')).toBe(
    '  ERROR  down (http://down.invalid): http://down.invalid refused the connection: nothing listens there  down/index.html\n',
  );
  expect(renderMatrixMarkdown(matrix)).toMatch(/\| failing \|[^\n]*\n\| down \|[^\n]*\n\| stopped \|[^\n]*\n\| passing \|/);
});
