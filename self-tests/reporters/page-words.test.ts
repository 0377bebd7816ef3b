import { expect, test } from '@playwright/test';
import type { ClauseRun } from '../../harness/judging/verdicts.ts';
import { renderBadge } from '../../reporters/badge.ts';
import { buildConformanceReport, type ConformanceReport } from '../../reporters/conformance-result.ts';
import { consoleSummary } from '../../reporters/console-summary.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { renderConformancePage } from '../../reporters/markdown.ts';
import { ONE_CLAUSE_PER_STATUS } from '../support/every-status.ts';
import { runMeta } from '../support/run-meta.ts';

// What a vendor's customer reads on the page, the summary and the badge: a profile met with a known deviation
// says so, the badge says the verdict in words, and nothing quotes a path of the suite's own sources.

const PROFILES = [
  { name: 'core', title: 'core', needs: 'the admin token' },
  { name: 'tokens', title: 'tokens', needs: 'CONFORMANCE_SIGNUP_TOKENS' },
];
const catalogue = ONE_CLAUSE_PER_STATUS.filter((c) => ['a.passed', 'd.deviation', 'g.observed'].includes(c.id));
const RUNS: ClauseRun[] = [
  { clause: 'a.passed', outcome: 'passed' },
  { clause: 'd.deviation', outcome: 'failed', reason: 'violated, and known' },
  {
    clause: 'g.observed',
    outcome: 'passed',
    evidence: {
      clause: 'g.observed',
      outcome: 'passed',
      instances: 1,
      violations: [],
      unevaluable: [],
      violationsCut: 0,
      observations: {
        description: { path: '/docs/openapi.json', status: 200 },
        differences: [{ at: '/enabled', kind: 'type', document: 'boolean', description: 'string' }],
      },
    },
  },
];

function report(overrides: Parameters<typeof runMeta>[0] = {}): ConformanceReport {
  return buildConformanceReport(
    catalogue,
    RUNS,
    runMeta({
      profiles: PROFILES.slice(0, 1),
      deviations: [{ clause: 'd.deviation', reason: 'accepted until fixed' }],
      document: { title: 'Admin API', sha256: 'ab'.repeat(32), readFrom: '../shared/spec/admin-api.md' },
      ...overrides,
    }),
  );
}

test('a profile met with a known deviation says "met, with 1 known deviation" and counts it, on the page and in summary.md', () => {
  const r = report();
  expect(r.verdict).toBe('pass');
  const page = renderHtml(r);
  const row = /<tr data-profile="core">[\s\S]*?<\/tr>/.exec(page)![0];
  expect(row).toContain('met, with 1 known deviation');
  expect(row).toContain('<td data-label="known deviations">1</td>');
  const summary = renderMarkdown(r);
  expect(summary).toContain('| `core` | yes | met, with 1 known deviation | 1 | 2 | 1 | the admin token |');
  expect(consoleSummary(r, [])).toContain('claim:   every profile: core met, with 1 known deviation');
});

test("the badge's face says the verdict and the deviations, its title the claim, and a narrowed claim keeps it narrow", () => {
  const badge = renderBadge(report());
  expect(badge).toContain('>PASS · 1 deviation</text>');
  expect(badge).toMatch(
    /<title>conformance: PASS, no new failure: [^<]*1 of 2 MUST clauses passed; claim: every profile: core met, with 1 known deviation<\/title>/,
  );
  expect(badge).toMatch(/aria-label="conformance: PASS, /);
  const failing = buildConformanceReport(catalogue, RUNS, runMeta({ profiles: PROFILES.slice(0, 1) }));
  expect(renderBadge(failing)).toContain('>FAIL</text>');
  const narrowed = buildConformanceReport(
    catalogue,
    RUNS,
    runMeta({ profiles: PROFILES, claim: ['core', 'tokens'], deviations: [{ clause: 'd.deviation', reason: 'r' }] }),
  );
  const svg = renderBadge(narrowed);
  expect(svg).toContain('claim: profiles core');
  expect(Number(/width="(\d+)"/.exec(svg)![1])).toBeLessThanOrEqual(260);
});

test('the reports name the document by title and digest, never by a path of the suite, and say how to check the evidence', () => {
  const r = report({ target: { name: 't', baseUrl: 'http://t.invalid', embedded: false } });
  for (const text of [renderHtml(r), renderMarkdown(r), renderConformancePage(r), consoleSummary(r, [])]) {
    expect(text).not.toContain('shared/spec');
    expect(text).toContain('ab'.repeat(32));
  }
  expect(renderHtml(r)).toContain('npx admin-api-conformance verify evidence.tar.gz');
  expect(renderMarkdown(r)).toContain('npx admin-api-conformance verify evidence.tar.gz');
});

test('a product stated is never followed by "Target\'s own version: not stated"; a version the target states is shown', () => {
  const stated = report({ product: { name: 'Unleash', version: '8.2.0' } });
  expect(renderHtml(stated)).not.toContain("Target's own version");
  expect(renderConformancePage(stated)).not.toContain('own version');
  const reported = report({ target: { name: 't', baseUrl: 'http://t.invalid', embedded: false, reportedVersion: { 'x-unleash-version': '8.2.0' } } });
  expect(renderHtml(reported)).toContain('<dd data-testid="reported-version">x-unleash-version: 8.2.0</dd>');
});

test('an observation is a table on the page, never raw JSON', () => {
  const page = renderHtml(report());
  const observation = /<div class="observed" data-testid="observation">([\s\S]*?)<\/div><\/details>/.exec(page)![1];
  expect(observation).toContain('<th scope="row">differences</th>');
  expect(observation).toContain('<th>at</th><th>kind</th><th>document</th><th>description</th>');
  expect(observation).toContain('<td data-label="document">boolean</td>');
  expect(observation).not.toMatch(/[{}]|&#34;/);
});

test('an observation in the Markdown page is a list of its keys and values, never raw JSON; a hostile depth ends in code', () => {
  const observed = (observations: unknown): ConformanceReport =>
    buildConformanceReport(
      catalogue,
      RUNS.map((r) => (r.clause === 'g.observed' ? { ...r, evidence: { ...r.evidence!, observations } } : r)),
      runMeta({ profiles: PROFILES.slice(0, 1), deviations: [{ clause: 'd.deviation', reason: 'accepted until fixed' }] }),
    );
  const lines = renderConformancePage(observed({ unknownFields: ['colour', 'mode'], counts: { total: 3, archived: 0 } })).split('\n');
  const at = lines.findIndex((l) => l.includes('(`g.observed`)'));
  expect(lines.slice(at, at + 5)).toEqual([
    expect.stringMatching(/\(`g\.observed`\):$/),
    '  - unknownFields: colour, mode',
    '  - counts:',
    '    - total: `3`',
    '    - archived: `0`',
  ]);
  const deep = renderConformancePage(observed({ a: { b: { c: { d: { e: { f: '*' } } } } } }));
  expect(deep).toContain('- d: `{"e":{"f":"*"}}`');
});
