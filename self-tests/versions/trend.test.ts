import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Trend } from '../../commands/trend.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { classify } from '../../reporters/diff.ts';
import { trend } from '../../run/commands.ts';
import { NOTES, oracleRows, PAGE, pageArgs, ROOT, RUNS, sweepNotes } from '../../targets/unleash/sweep-page.ts';

// Issue 41, point 3: `trend` draws a product's conformance over its versions from any set of runs; the page of
// the Unleash sweep is exactly what it draws from the runs kept beside it, and each cell is the run's own status.

async function trendOf(args: string[], cwd = ROOT): Promise<{ exitCode: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const exitCode = await trend(args, { output: { out: (t) => void (out += t), err: (t) => void (err += t) }, cwd });
  return { exitCode, out, err };
}

const reportAt = (label: string) => JSON.parse(readFileSync(path.join(RUNS, label, 'conformance.json'), 'utf8')) as ConformanceReport;
const stored = (label: string) => path.relative(ROOT, path.join(RUNS, label, 'conformance.json'));

test('the committed page docs/unleash/versions.md is exactly what trend writes from the runs kept (no hand edits)', async () => {
  const args = pageArgs();
  expect(args.filter((a) => a.endsWith('conformance.json')).length).toBeGreaterThanOrEqual(12);
  const drawn = await trendOf(args);
  expect(drawn.exitCode, drawn.err).toBe(0);
  expect(drawn.out).toBe(readFileSync(PAGE, 'utf8'));
});

test('the committed notes are exactly what the sweep makes of the runs kept, the second oracle among them', () => {
  expect(readFileSync(NOTES, 'utf8')).toBe(sweepNotes());
  expect(sweepNotes()).toContain("## A second oracle: Unleash's own schema (8.2.0)");
});

test("the second oracle: a clause whose answers Unleash's strict validation refuses, or accepts where this suite finds a departure, is a difference", () => {
  const plain = reportAt('8.2.0');
  const refused = { ...plain, clauses: plain.clauses.map((c) => (c.id === 'projects.list.required' ? { ...c, status: 'failed' as const } : c)) };
  const rows = new Map(oracleRows(plain, refused).map((r) => [r.split('`')[1], r]));
  expect(rows.get('projects.list.required')).toContain(
    "refuses its own answer: failed under strict validation | differ: Unleash's schema refuses what the document allows",
  );
  expect(rows.get('signup-token.state.expired-not-enabled')).toContain(
    "accepts its own answers (the same outcome) | differ: the document asks more than Unleash's schema",
  );
  expect(rows.get('projects.project.types')).toContain('meets the document | accepts its own answers (the same outcome) | agree |');
  expect(rows.get('error.projects.401')).toContain("not checked: it validates only the operations' 200 answers | — |");
});

test("the grid of two releases is each run's own status, clause by clause, oldest version first, and each change is where they differ", async () => {
  const [older, newer] = ['4.19.5', '8.2.0'];
  // Given newest first: the columns are ordered by version, 4.19.5 before 8.2.0 (not as text: 10 after 9).
  const drawn = await trendOf([stored(newer), stored(older), '--format', 'json']);
  expect(drawn.exitCode, drawn.err).toBe(0);
  const t = JSON.parse(drawn.out) as Trend;
  expect(t.columns.map((c) => [c.version, c.versionFrom])).toEqual([
    [older, 'read'],
    [newer, 'read'],
  ]);
  const [a, b] = [reportAt(older), reportAt(newer)];
  const status = (r: ConformanceReport, id: string) => r.clauses.find((c) => c.id === id)?.status;
  const ids = [...new Set([...a.clauses, ...b.clauses].map((c) => c.id))];
  expect(t.rows.map((r) => r.id).sort()).toEqual([...ids].sort());
  for (const row of t.rows) {
    expect(row.statuses, row.id).toEqual([status(a, row.id), status(b, row.id)]);
    // A change as diff tells one: another status, or the same failure with other violations, or another observation.
    const kind = classify(
      a.clauses.find((c) => c.id === row.id),
      b.clauses.find((c) => c.id === row.id),
    );
    expect(row.changes, row.id).toEqual(kind ? [expect.objectContaining({ at: newer, from: status(a, row.id), to: status(b, row.id), kind })] : []);
  }
  // The two releases differ somewhere: a grid that said nothing changed would prove nothing.
  expect(t.rows.some((r) => r.changes.length > 0)).toBe(true);
  for (const [i, r] of [a, b].entries()) expect(t.columns[i].profiles).toEqual(Object.fromEntries(r.claim.byProfile.map((p) => [p.name, p.status])));
  const markdown = await trendOf([stored(older), stored(newer)]);
  const changed = t.rows.find((r) => r.changes.length > 0)!;
  expect(markdown.out).toContain(`| \`${changed.id}\` | ${newer} |`);
});

test('two runs of one version, Unleash with and without its strict schema validation, are compared clause by clause', async () => {
  const drawn = await trendOf([stored('8.2.0'), stored('8.2.0-strict-schema'), '--format', 'json']);
  const t = JSON.parse(drawn.out) as Trend;
  const [plain, strict] = [reportAt('8.2.0'), reportAt('8.2.0-strict-schema')];
  const differ = plain.clauses.filter((c) => strict.clauses.find((s) => s.id === c.id)?.status !== c.status).map((c) => c.id);
  expect(t.pairs).toEqual([
    expect.objectContaining({ version: '8.2.0', runs: [plain.target.name, strict.target.name], agree: plain.clauses.length - differ.length }),
  ]);
  expect(t.pairs[0].differ.map((d) => d.id)).toEqual(differ);
  // A second configuration of one release is not a change of release.
  expect(t.rows.every((r) => r.changes.length === 0)).toBe(true);
});

test('a run that names no version, a damaged report and a missing one are refused, each named, exit code 2', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-trend-'));
  try {
    const report = reportAt('8.2.0');
    const { version: _gone, versionFrom: _from, read: _read, ...product } = report.product!;
    writeFileSync(path.join(dir, 'unversioned.json'), JSON.stringify({ ...report, product }));
    writeFileSync(path.join(dir, 'damaged.json'), '{"reportVersion": 2,');
    const cases: [string, string][] = [
      ['unversioned.json', 'names no product version: state it (CONFORMANCE_PRODUCT_VERSION) or read it (CONFORMANCE_READ_PRODUCT_VERSION)'],
      ['damaged.json', 'damaged.json'],
      ['absent.json', 'there is no file or folder'],
    ];
    for (const [file, words] of cases) {
      const drawn = await trendOf([path.join(RUNS, '8.2.0', 'conformance.json'), file], dir);
      expect(drawn.exitCode, file).toBe(2);
      expect(drawn.err, file).toContain(words);
      expect(drawn.out).toBe('');
    }
    expect((await trendOf([], dir)).err).toContain('usage: admin-api-conformance trend');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
