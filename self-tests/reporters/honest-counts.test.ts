import { expect, test } from '@playwright/test';
import { markdownText } from '../../reporters/escape.ts';
import type { Clause } from '../../harness/contracts/catalogue.ts';
import { renderBadge } from '../../reporters/badge.ts';
import { buildConformanceReport, type ClauseRun } from '../../reporters/conformance-result.ts';
import { consoleSummary } from '../../reporters/console-summary.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderConformancePage, renderMarkdown } from '../../reporters/markdown.ts';
import { buildMatrixReport } from '../../reporters/matrix-result.ts';
import { renderMatrixHtml, renderMatrixMarkdown } from '../../reporters/matrix-render.ts';
import { reportSchemaErrors } from '../support/report-schema.ts';
import { runMeta } from '../support/run-meta.ts';

// Issue 13, point 1: an observation is never a pass, and every rendering counts MUST clauses out of the
// catalogue's, whatever was exercised.

const catalogue: Clause[] = [
  { id: 'a.must', section: '2.1', level: 'MUST', title: 'a', profile: 'needs-input' },
  { id: 'b.must', section: '3', level: 'MUST', title: 'b', profile: 'core' },
  { id: 'c.must', section: '3', level: 'MUST', title: 'c', profile: 'core' },
  { id: 'd.info', section: '4.1', level: 'INFO', title: 'd' },
  { id: 'e.info', section: '4.2', level: 'INFO', title: 'e' },
];
// a.must is not exercised: the claim is narrowed to the profile the run exercised.
const meta = runMeta({
  profiles: [
    { name: 'core', title: 'what a run always exercises', needs: 'nothing more' },
    { name: 'needs-input', title: 'what needs more', needs: 'an input' },
  ],
  claim: ['core'],
  deviations: [
    { clause: 'b.must', reason: 'known one', link: 'https://tracker.invalid/1' },
    { clause: 'c.must', reason: 'known two', link: 'docs/deviations.md#c' },
  ],
});
const runs: ClauseRun[] = [
  { clause: 'a.must', outcome: 'not-exercised', reason: 'needs input' },
  { clause: 'b.must', outcome: 'failed' },
  { clause: 'c.must', outcome: 'failed' },
  { clause: 'd.info', outcome: 'passed' },
  { clause: 'e.info', outcome: 'passed' },
];
const report = buildConformanceReport(catalogue, runs, meta);

test('an INFO clause is observed, never passed, and the counts keep the two apart', () => {
  expect(report.clauses.filter((c) => c.level === 'INFO').map((c) => c.status)).toEqual(['observed', 'observed']);
  expect(report.summary).toMatchObject({ passed: 0, observed: 2, notExercised: 1, knownDeviations: 2, total: 5, must: { passed: 0, total: 3 } });
  expect(report.verdict).toBe('pass');
  expect(report.reportVersion).toBe(2);
  expect(reportSchemaErrors(report)).toEqual([]);
});

test("the badge, the page, the summary and the console give MUST clauses one denominator, the catalogue's", () => {
  expect(renderBadge(report)).toContain('0 of 3 MUST clauses passed');
  const html = renderHtml(report);
  expect(html).toContain('<b data-testid="must-passed">0</b> passed of <b data-testid="must-total">3</b>');
  expect(renderMarkdown(report)).toContain('MUST clauses: 0 passed of 3; INFO observations: 2 of 2, never judged.');
  expect(renderMarkdown(report)).toMatch(/\| MUST \| 0 \| 0 \| 0 \| 1 \| 2 \| 0 \| – \| 3 \|/);
  const console = consoleSummary(report, []);
  expect(console).toContain('MUST:    0 passed of 3;');
  expect(console).toContain('INFO:    2 observed of 2, never judged');
  const matrix = buildMatrixReport(
    [
      { report, path: 'a/index.html' },
      { report, path: 'b/index.html' },
    ],
    1,
  );
  expect(matrix.summary.must.total).toBe(6);
  expect(renderMatrixHtml(matrix)).toContain('0/3 MUST');
  expect(renderMatrixMarkdown(matrix)).toContain('| t | PASS | core | 0 | 0 | 0 | 1 | 2 | 3 |');
});

test('no rendering calls an observation passed', () => {
  const html = renderHtml(report);
  for (const id of ['d.info', 'e.info'])
    expect(html).toMatch(new RegExp(`<span class="pill observed">observed</span> <span class="title">[^<]*</span> <code class="id">${id}`));
  expect(html).not.toContain('pill passed');
  expect(renderMarkdown(report)).toMatch(/\| INFO \| – \| – \| 0 \| 0 \| – \| 0 \| 2 \| 2 \|/);
});

test('a deviation link is kept as given, and rendered as a link only when it is absolute', () => {
  expect(report.clauses.find((c) => c.id === 'c.must')?.deviation?.link).toBe('docs/deviations.md#c');
  const html = renderHtml(report);
  expect(html).toContain('<a href="https://tracker.invalid/1">');
  expect(html).not.toContain('href="docs/deviations.md#c"');
  expect(html).toContain('(<code>docs/deviations.md#c</code>)');
  const markdown = renderMarkdown(report);
  expect(markdown).toContain('known one ([link](<https://tracker.invalid/1>))');
  expect(markdown).toContain(`known two (${markdownText('docs/deviations.md#c')})`);
  expect(renderConformancePage(report)).not.toContain('](docs/');
});
