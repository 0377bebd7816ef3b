import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { referenceEnvironment } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { runConformance } from '../../run/engine.ts';
import { ctrfSchemaErrors } from '../support/ctrf-schema.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';

// The history over four runs of one target, in process against the reference server and one of its faults:
// conformant, broken on one clause, conformant, broken again. The clause is new, regressed, fixed, then flaky
// (its outcome changed three times, the judge unchanged), and the history holds one line per run; the labels
// change no verdict and no exit code.

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
const CLAUSE = 'signup-token.state.expired-not-enabled';

let server: Awaited<ReturnType<typeof startReferenceServer>>;
test.beforeAll(async () => (server = await startReferenceServer(0, [fault])));
test.afterAll(async () => new Promise<void>((resolve) => server.server.close(() => resolve())));

test('four runs of one target: the broken clause is new, regressed, fixed, then flaky, and the history has a line per run', async () => {
  const dir = mkdtempSync(path.join(process.env.SELF_TESTS_SCRATCH ?? os.tmpdir(), 'history-'));
  const history = path.join(dir, 'history.jsonl');
  const broken = `${server.url}/variants/${fault.name}`;
  const seen: [string | undefined, number, string | undefined][] = [];
  for (const [i, baseUrl] of [server.url, broken, server.url, broken].entries()) {
    const result = await runConformance({
      env: { ...referenceEnvironment(baseUrl), CONFORMANCE_TARGET_NAME: 'staging' },
      cwd: dir,
      reportDir: path.join(dir, `report-${i + 1}`),
      history,
    });
    const report = result.targets[0].report;
    expect(reportSchemaErrors(report)).toEqual([]);
    const clause = report.clauses.find((c) => c.id === CLAUSE)!;
    seen.push([clause.transition, result.exitCode, clause.status]);
    // A clause that passed every time stays as it was.
    expect(report.clauses.find((c) => c.id === 'projects.owner.group')?.transition).toBe(i === 0 ? 'new' : 'unchanged');
    expect(clause.recent).toHaveLength(i);
  }
  expect(seen).toEqual([
    ['new', 0, 'passed'],
    ['regressed', 1, 'failed'],
    ['fixed', 0, 'passed'],
    // Flaky is a label: the failure is still a failure, exit code 1.
    ['flaky', 1, 'failed'],
  ]);
  const lines = readFileSync(history, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => [l.target.name, l.clauses[CLAUSE], l.verdict])).toEqual([
    ['staging', 'passed', 'pass'],
    ['staging', 'failed', 'fail'],
    ['staging', 'passed', 'pass'],
    ['staging', 'failed', 'fail'],
  ]);
  // Each line names its run, the judge and the evidence bundle, and no token.
  expect(new Set(lines.map((l) => l.run)).size).toBe(4);
  for (const l of lines) expect(l.bundle).toMatch(/^[0-9a-f]{64}$/);
  expect(readFileSync(history, 'utf8')).not.toContain(referenceEnvironment('').CONFORMANCE_ADMIN_TOKEN);
  renderingsSay(path.join(dir, 'report-4'));
});

/** The fourth run's renderings: summary.md leads with the flaky clause, JUnit and CTRF carry the label, the page draws the strip. */
function renderingsSay(reportDir: string): void {
  const read = (name: string) => readFileSync(path.join(reportDir, name), 'utf8');
  const summary = read('summary.md').split('\n');
  const lead = summary.findIndex((l) => l.startsWith('> **Flaky**'));
  expect(lead).toBeGreaterThan(0);
  expect(lead).toBeLessThan(summary.findIndex((l) => l.startsWith('Target ')));
  expect(summary[lead]).toContain(CLAUSE);
  const ctrf = JSON.parse(read('ctrf.json'));
  expect(ctrfSchemaErrors(ctrf)).toEqual([]);
  const test = ctrf.results.tests.find((t: { testId: string }) => t.testId === CLAUSE);
  expect([test.status, test.flaky, test.labels.transition]).toEqual(['failed', true, 'flaky']);
  expect(ctrf.results.tests.filter((t: { flaky?: boolean }) => t.flaky)).toHaveLength(1);
  expect(read('junit.xml')).toMatch(
    new RegExp(`<property name="clause" value="${CLAUSE.replace(/\./g, '\\.')}"/>.*<property name="transition" value="flaky"/>`),
  );
  // The strip has a text alternative: each outcome in words, oldest first.
  expect(read('index.html')).toContain('aria-label="oldest first: passed, failed, passed, failed (this run)"');
}
