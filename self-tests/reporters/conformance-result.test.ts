import { expect, test } from '@playwright/test';
import type { Clause } from '../../harness/contracts/catalogue.ts';
import { buildConformanceReport, EXIT_CODE, type ClauseRun } from '../../reporters/conformance-result.ts';
import { renderBadge } from '../../reporters/badge.ts';
import { consoleSummary } from '../../reporters/console-summary.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { claimText, headline, verdictText } from '../../reporters/sections.ts';
import { runMeta } from '../support/run-meta.ts';

const catalogue: Clause[] = [
  { id: 'a.must', section: '2.1', level: 'MUST', title: 'a', profile: 'core' },
  { id: 'b.must', section: '3', level: 'MUST', title: 'b', profile: 'tokens' },
  { id: 'c.info', section: '4.1', level: 'INFO', title: 'c' },
];
const PROFILES = [
  { name: 'core', title: 'what the admin token alone exercises', needs: 'the admin token' },
  { name: 'tokens', title: 'what signup tokens exercise', needs: 'CONFORMANCE_SIGNUP_TOKENS' },
];
const meta = runMeta({ contractsHash: 'h', target: { name: 't', baseUrl: 'http://t', embedded: false }, profiles: PROFILES });
const run = (clause: string, outcome: ClauseRun['outcome']): ClauseRun => ({
  clause,
  outcome,
  reason: outcome === 'not-exercised' ? 'needs input' : undefined,
});

test('a MUST clause of a claimed profile left unexercised is no verdict, which names what it needs and the claim the run could make', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'passed'), run('b.must', 'not-exercised'), run('c.info', 'passed')], meta);
  expect(report.verdict).toBe('partial');
  expect(EXIT_CODE[report.verdict]).toBe(3);
  expect(report.claim).toEqual({
    profiles: ['core', 'tokens'],
    narrowed: false,
    byProfile: [
      { ...PROFILES[0], claimed: true, status: 'met', must: { passed: 1, failed: 0, errored: 0, notExercised: 0, knownDeviations: 0, notJudged: 0, total: 1 } },
      {
        ...PROFILES[1],
        claimed: true,
        status: 'not-exercised',
        must: { passed: 0, failed: 0, errored: 0, notExercised: 1, knownDeviations: 0, notJudged: 0, total: 1 },
      },
    ],
  });
  expect(verdictText(report)).toBe(
    'no verdict: the claim is not exercised in full: tokens needs CONFORMANCE_SIGNUP_TOKENS; give what it needs, or narrow the claim to what was exercised: CONFORMANCE_CLAIM=core',
  );
});

test('a narrowed claim passes on its profiles alone, and says which it claims and which it does not', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'passed'), run('b.must', 'not-exercised'), run('c.info', 'passed')], {
    ...meta,
    claim: ['core'],
  });
  expect(report.verdict).toBe('pass');
  expect(report.claim).toMatchObject({ profiles: ['core'], narrowed: true });
  expect(verdictText(report)).toBe('the target meets every MUST clause of the profiles claimed, core');
  expect(claimText(report.claim)).toBe('profiles core met; not claimed: tokens (not exercised)');
  expect(report.summary).toMatchObject({
    passed: 1,
    observed: 1,
    failed: 0,
    errored: 0,
    notExercised: 1,
    total: 3,
    must: { passed: 1, notExercised: 1, total: 2 },
  });
});

test('a violation the judge recorded fails; an errored clause is no verdict, never a violation', () => {
  const failed = buildConformanceReport(catalogue, [run('a.must', 'failed'), run('b.must', 'passed')], meta);
  expect(failed.verdict).toBe('fail');
  const crashed = buildConformanceReport(catalogue, [run('a.must', 'errored'), run('b.must', 'passed')], meta);
  expect(crashed.clauses.map((c) => c.status)).toEqual(['errored', 'passed', 'not-judged']);
  expect(crashed.verdict).toBe('error');
});

test('a run that exercised no MUST clause is no pass', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'not-exercised'), run('b.must', 'not-exercised'), run('c.info', 'passed')], meta);
  expect(report.verdict).toBe('error');
});

test('a run stopped before its checks reports every clause errored, with the reason', () => {
  const report = buildConformanceReport(catalogue, [], { ...meta, runStatus: 'failed', runErrors: ['target unreachable'] });
  expect(report.completed).toBe(false);
  expect(report.verdict).toBe('error');
  expect(new Set(report.clauses.map((c) => c.status))).toEqual(new Set(['errored']));
  expect(report.clauses[0].reason).toContain('target unreachable');
});

test('an interrupted run is incomplete, never passes nor fails, and every rendering heads it INTERRUPTED', () => {
  for (const found of ['passed', 'failed'] as const) {
    const report = buildConformanceReport(catalogue, [run('a.must', found), run('b.must', 'passed')], { ...meta, runStatus: 'interrupted' });
    expect(report).toMatchObject({ completed: false, verdict: 'incomplete', interrupted: true });
    expect(EXIT_CODE[report.verdict]).toBe(3);
    expect(headline(report)).toBe('INTERRUPTED');
    expect(consoleSummary(report, [])).toContain('INTERRUPTED: no verdict: the run was stopped before it ended');
    expect(renderMarkdown(report)).toContain('## Conformance: INTERRUPTED, no verdict');
    expect(renderHtml(report)).toContain('<span class="badge" data-testid="verdict">INTERRUPTED</span>');
    expect(renderBadge(report)).toContain('INTERRUPTED');
    expect(renderBadge(report)).not.toContain('#c62828');
  }
});

test('a check that never ran because the run timed out is not judged, and the run has no verdict', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'passed')], {
    ...meta,
    runStatus: 'timedout',
  });
  expect(report.clauses[1]).toMatchObject({ status: 'not-judged', reason: 'its test did not run: the run ended timedout' });
  expect(report.verdict).toBe('error');
});

test('a violation fails the run in a profile not claimed too: a demonstrated break is never hidden', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'passed'), run('b.must', 'failed')], { ...meta, claim: ['core'] });
  expect(report.verdict).toBe('fail');
  expect(report.claim.byProfile[1]).toMatchObject({ claimed: false, status: 'violated' });
});

test('a claimed profile partly exercised is partial, and its clause not exercised keeps the claim without a verdict', () => {
  const three: Clause[] = [...catalogue, { id: 'd.must', section: '3', level: 'MUST', title: 'd', profile: 'tokens' }];
  const report = buildConformanceReport(three, [run('a.must', 'passed'), run('b.must', 'passed'), run('d.must', 'not-exercised')], meta);
  expect(report.claim.byProfile[1].status).toBe('partial');
  expect(report.verdict).toBe('partial');
});

test('a run that left MUST clauses out (a --grep) is partial, never a pass, and names them', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'passed'), run('c.info', 'passed')], meta);
  expect(report.verdict).toBe('partial');
  expect(report.clauses[1]).toMatchObject({
    id: 'b.must',
    status: 'not-judged',
    reason: 'its test was left out of this run (--grep, --grep-invert or a test filter)',
  });
  expect(report.summary.must).toMatchObject({ passed: 1, notJudged: 1 });
});

test('a violation wins over errors and over clauses not judged', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'failed'), run('c.info', 'errored')], meta);
  expect(report.verdict).toBe('fail');
});

test('each verdict has its exit code: 0 pass, 1 fail, 3 for every kind of no verdict', () => {
  expect(EXIT_CODE).toEqual({ pass: 0, fail: 1, error: 3, partial: 3, incomplete: 3 });
});
