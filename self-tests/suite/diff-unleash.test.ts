import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { diffRuns, type RunDiff } from '../../reporters/diff.ts';
import { diffMarkdown } from '../../reporters/diff-output.ts';
import { checkedReport, readJsonFile } from '../../readers/report-file.ts';
import { check } from '../../harness/files/checked.ts';
import { PROJECT_ROOT, runCommand } from '../support/run-suite.ts';

// The record of real Unleash 7.6.5 and 8.2.0: the conformance.json of each from one run of
// `npm run conformance:unleash -- 7.6.5 8.2.0` (self-tests/fixtures/unleash/README.md). diff must name exactly
// the clauses whose status or evidence differs, each with its kind and why, and docs/unleash/README.md must show
// what it says. It fails if diff stops comparing observations (nothing would be named), or counts what differs
// between any two runs, such as the dates in the expired token's violation (its five known deviations would be
// named too).

const FIXTURES = path.join(PROJECT_ROOT, 'self-tests', 'fixtures', 'unleash');
const [OLD, NEW] = ['7.6.5', '8.2.0'].map((version) => path.join(FIXTURES, `conformance-${version}.json`));

const changed = (id: string, why: string) => ({
  target: 'unleash-8.2.0',
  id,
  level: 'INFO',
  kind: 'observation-changed',
  from: 'observed',
  to: 'observed',
  why,
});
const described = (field: string) => `{"at":"200 projects[].${field}","kind":"added","document":"not in the document","description":"optional"}`;

const CHANGES = [
  changed('signup-token.observe.description-drift', '/description/version: "7.6.5" then "8.2.0"'),
  changed(
    'projects.observe.description-drift',
    `/description/version: "7.6.5" then "8.2.0"; /differences: added ${described('cleanupCount')}; /differences: added ${described('onboardingStatus')}`,
  ),
  changed('projects.observe.unknown-fields', '/fields: added {"field":"/projects/*/onboardingStatus","count":1}'),
];

test('diff of Unleash 7.6.5 and 8.2.0 names the three observations 8.2.0 changes, and nothing regressed', async () => {
  const run = await runCommand(['diff', OLD, NEW, '--format', 'json']);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  const diff = JSON.parse(run.stdout) as RunDiff;
  expect(check(new URL('../../commands/diff.schema.json', `file://${__filename}`), diff)).toEqual({ ok: true, value: diff });
  expect(diff.changes).toEqual(CHANGES);
  expect([diff.unchanged, diff.regressions, diff.judgeChanged, diff.unpaired]).toEqual([43, 0, [], []]);
  expect([diff.old.verdicts, diff.new.verdicts]).toEqual([[{ target: 'unleash-7.6.5', verdict: 'pass' }], [{ target: 'unleash-8.2.0', verdict: 'pass' }]]);
});

test('both versions rest on the same five known deviations, for the same reasons', () => {
  const [before, after] = [OLD, NEW].map((file) => checkedReport(readJsonFile(file), file));
  const deviations = (clauses: typeof before.clauses) => clauses.filter((c) => c.status === 'known-deviation').map((c) => [c.id, c.deviation?.reason]);
  expect(deviations(before.clauses)).toHaveLength(5);
  expect(deviations(after.clauses)).toEqual(deviations(before.clauses));
});

test('docs/unleash/README.md shows every row of the diff as diff renders it', () => {
  const [before, after] = [OLD, NEW].map((file) => ({ source: file, reports: [checkedReport(readJsonFile(file), file)] }));
  const rows = diffMarkdown(diffRuns(before, after))
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Change |'));
  expect(rows).toHaveLength(CHANGES.length);
  const page = readFileSync(path.join(PROJECT_ROOT, 'docs', 'unleash', 'README.md'), 'utf8').split('\n');
  for (const row of rows) expect(page, 'a row of the diff, as docs/unleash/README.md must show it').toContain(row);
});
