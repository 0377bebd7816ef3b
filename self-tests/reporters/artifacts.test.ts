import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { WRITTEN_FILE } from '../../harness/config/report-folder.ts';
import { loadTargets } from '../../harness/config/targets.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { leaveChromium, sharedChromium } from '../support/browser.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';
import { ctrfSchemaErrors } from '../support/ctrf-schema.ts';
import { verifyCommand } from '../support/bundles.ts';
import { referenceTargetEnv, runSuite, statusesOf, type SuiteRun } from '../support/run-suite.ts';

// A run against the reference target and one against a broken variant each leave all five artefacts.

/** The fault that keeps an expired token enabled, from the catalogue of broken servers. */
const expiredStillEnabled = FAULTS.find((f) => f.name === 'expired-token-enabled')!;

const CLAUSE = 'signup-token.state.expired-not-enabled';

test.describe.configure({ mode: 'parallel' });

let server: Awaited<ReturnType<typeof startReferenceServer>>;
test.beforeAll(async () => (server = await startReferenceServer(0, [expiredStillEnabled])));
test.afterAll(async () => new Promise<void>((resolve) => server.server.close(() => resolve())));

function artefacts(run: SuiteRun) {
  const read = (name: string) => readFileSync(path.join(run.reportDir, name), 'utf8');
  return {
    html: path.join(run.reportDir, 'index.html'),
    markdown: read('summary.md'),
    badge: read('badge.svg'),
    junit: read('junit.xml'),
    ctrf: JSON.parse(read('ctrf.json')),
  };
}

async function openReport(file: string, screenshot: string) {
  const browser = await sharedChromium();
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const external: string[] = [];
  page.on('request', (r) => !r.url().startsWith('file:') && external.push(r.url()));
  await page.goto(`file://${file}`);
  const seen = {
    verdict: await page.getByTestId('verdict').innerText(),
    counts: await page.getByTestId('counts').innerText(),
    mustPassed: await page.getByTestId('must-passed').innerText(),
    failedRows: await page.getByTestId('attention').locator('details.clause').count(),
  };
  await page.screenshot({ path: screenshot, fullPage: true });
  await leaveChromium(browser);
  return { ...seen, external };
}

test('a run against the reference target writes a valid report, a passing page, summary, badge, JUnit and CTRF', async () => {
  const run = await runSuite(referenceTargetEnv(server.url));
  expect(run.exitCode, run.stdout).toBe(0);
  expect(reportSchemaErrors(run.report)).toEqual([]);
  const { html, markdown, badge, junit, ctrf } = artefacts(run);
  expect(ctrfSchemaErrors(ctrf)).toEqual([]);
  // The INFO clauses are observed or not exercised (skipped, as in JUnit): none of them passes.
  expect(ctrf.results.summary).toMatchObject({ tests: 46, passed: 37, failed: 0, skipped: 9, other: 0 });
  // The run lists every file it wrote, so that the next run in the folder removes each of them, and nothing else.
  const written: string[] = JSON.parse(readFileSync(path.join(run.reportDir, WRITTEN_FILE), 'utf8')).written;
  expect(readdirSync(run.reportDir).filter((f) => f !== WRITTEN_FILE && !written.includes(f))).toEqual([]);
  const page = await openReport(html, path.join(run.reportDir, 'index.png'));
  expect(page).toMatchObject({ verdict: 'PASS', mustPassed: '37', failedRows: 0, external: [] });
  expect(page.counts).toMatch(/37\s*MUST passed/);
  expect(page.counts).toMatch(/7\s*INFO observed/);
  expect(markdown).toContain('## Conformance: PASS');
  expect(markdown).toMatch(/\| MUST \| 37 \| 0 \| 0 \| 0 \| 0 \|/);
  expect(badge).toContain('>PASS</text>');
  expect(badge).toContain('37 of 37 MUST clauses passed');
  expect(badge).toContain('#2e7d32');
  expect(junit).toContain(`[${CLAUSE}]`);
  expect(junit).not.toMatch(/<failure|<error/);
});

test('a run against a broken variant shows the failed clause in every artefact', async () => {
  const run = await runSuite(referenceTargetEnv(`${server.url}/variants/${expiredStillEnabled.name}`));
  expect(run.exitCode).toBe(1);
  expect(reportSchemaErrors(run.report)).toEqual([]);
  expect(statusesOf(run.report)[CLAUSE]).toBe('failed');
  const { html, markdown, badge, junit, ctrf } = artefacts(run);
  expect(ctrfSchemaErrors(ctrf)).toEqual([]);
  expect(ctrf.results.tests.find((t: { testId: string }) => t.testId === CLAUSE)).toMatchObject({ status: 'failed', rawStatus: 'failed' });
  const page = await openReport(html, path.join(run.reportDir, 'index.png'));
  expect(page).toMatchObject({ verdict: 'FAIL', mustPassed: '36', failedRows: 1, external: [] });
  expect(page.counts).toMatch(/1\s*failed/);
  expect(markdown).toContain('## Conformance: FAIL');
  expect(markdown).toContain(`| \`${CLAUSE}\` | 3 |`);
  expect(badge).toContain('>FAIL</text>');
  expect(badge).toContain('36 of 37 MUST clauses passed');
  expect(badge).toContain('#c62828');
  // JUnit tells a violation (an expect failure) from a check that could not run (an error).
  expect(junit).toMatch(/<failure message="[^"]*" type="violation">/);
  // Each placeholder of a curl line is named with the setting that gives its secret.
  expect(run.report?.placeholders).toContainEqual({ placeholder: '$TOKEN', setting: 'CONFORMANCE_ADMIN_TOKEN' });
  expect(run.report?.placeholders).toContainEqual({ placeholder: '$SIGNUP_TOKEN_1', setting: 'CONFORMANCE_SIGNUP_TOKENS entry 1' });
  expect(run.stdout).toContain(`failed   ${CLAUSE} (3)`);
});

function deviationsFile(entries: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'deviations-')), 'deviations.yaml');
  writeFileSync(file, `deviations:\n${entries}`);
  return file;
}

test('a known deviation excuses its failure, and says so; one that passes now is reported as no longer needed', async () => {
  const file = deviationsFile(
    [
      `  - clause: ${CLAUSE}\n    reason: enabled is stored, not computed\n    link: https://example.invalid/issue/1\n    expires: 2999-01-01`,
      '  - clause: projects.owner.group\n    reason: group owners were once missing',
    ].join('\n'),
  );
  const run = await runSuite(referenceTargetEnv(`${server.url}/variants/${expiredStillEnabled.name}`, { CONFORMANCE_DEVIATIONS: file }));
  expect(run.exitCode, run.stdout).toBe(0);
  const clauses = Object.fromEntries(run.report!.clauses.map((c) => [c.id, c]));
  expect(clauses[CLAUSE]).toMatchObject({ status: 'known-deviation', deviation: { state: 'applied', link: 'https://example.invalid/issue/1' } });
  expect(clauses['projects.owner.group']).toMatchObject({ status: 'passed', deviation: { state: 'no-longer-needed' } });
  expect(run.report!.summary.must).toMatchObject({ failed: 0, knownDeviations: 1 });
  expect(run.stdout).toContain('deviation no longer needed  projects.owner.group');
  expect(readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8')).toContain('### Known deviations');
  // An accepted failure is no <failure> in JUnit, which agrees with the gate, and no pass either: skipped, with why.
  expect(readFileSync(path.join(run.reportDir, 'junit.xml'), 'utf8')).not.toMatch(/<failure|<error/);
  // CTRF neither fails it nor passes it, as JUnit: its own status stays in rawStatus.
  const ctrf = JSON.parse(readFileSync(path.join(run.reportDir, 'ctrf.json'), 'utf8'));
  expect(ctrf.results.tests.find((t: { testId: string }) => t.testId === CLAUSE)).toMatchObject({ status: 'skipped', rawStatus: 'known-deviation' });
  // The deviation the pass rests on stands at the top of the page, beside where failures would, not mid-page.
  const page = readFileSync(path.join(run.reportDir, 'index.html'), 'utf8');
  expect(page.indexOf('data-testid="deviations"')).toBeGreaterThan(0);
  expect(page.indexOf('data-testid="deviations"')).toBeLessThan(page.indexOf('Clauses by section'));
  // verify's line names the claim and the deviation its VERIFIED rests on.
  const verified = await verifyCommand([path.join(run.reportDir, 'evidence.tar.gz')]);
  expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toContain('expired-token met, with 1 known deviation');
  expect(verified.stdout).toContain(`resting on 1 known deviation(s): ${CLAUSE}`);
});

test('an expired known deviation fails the gate again', async () => {
  const file = deviationsFile(`  - clause: ${CLAUSE}\n    reason: enabled is stored, not computed\n    expires: 2020-01-01\n`);
  const run = await runSuite(referenceTargetEnv(`${server.url}/variants/${expiredStillEnabled.name}`, { CONFORMANCE_DEVIATIONS: file }));
  expect(run.exitCode).toBe(1);
  expect(run.report!.clauses.find((c) => c.id === CLAUSE)).toMatchObject({ status: 'failed', deviation: { state: 'expired' } });
  expect(run.stdout).toContain(`deviation expired  ${CLAUSE}`);
});

test('a deviations file that names an unknown clause is a configuration error, before any request', () => {
  // Read as the Playwright config reads it: configuration errors end a run there with their line (self-tests/config).
  const file = deviationsFile('  - clause: no.such.clause\n    reason: r\n');
  expect(() => loadTargets(referenceTargetEnv(server.url, { CONFORMANCE_DEVIATIONS: file }), path.dirname(file))).toThrow(
    '"no.such.clause" is not a clause id of contracts/clauses.yaml',
  );
});
