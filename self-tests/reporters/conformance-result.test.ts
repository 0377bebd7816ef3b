import { expect, test } from '@playwright/test';
import type { Clause } from '../../harness/contracts/catalogue.ts';
import { buildConformanceReport, EXIT_CODE, type ClauseRun } from '../../reporters/conformance-result.ts';
import { runMeta } from '../support/run-meta.ts';

const catalogue: Clause[] = [
  { id: 'a.must', section: '2.1', level: 'MUST', title: 'a' },
  { id: 'b.must', section: '3', level: 'MUST', title: 'b' },
  { id: 'c.info', section: '4.1', level: 'INFO', title: 'c' },
];
const meta = runMeta({ contractsHash: 'h', target: { name: 't', baseUrl: 'http://t', embedded: false } });
const run = (clause: string, outcome: ClauseRun['outcome']): ClauseRun => ({
  clause,
  outcome,
  reason: outcome === 'not-exercised' ? 'needs input' : undefined,
});

test('passes only when every MUST clause passed or was not exercised and nothing errored', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'passed'), run('b.must', 'not-exercised'), run('c.info', 'passed')], meta);
  expect(report.verdict).toBe('pass');
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

test('an interrupted run is incomplete and never passes', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'passed'), run('b.must', 'passed')], {
    ...meta,
    runStatus: 'interrupted',
  });
  expect(report.completed).toBe(false);
  expect(report.verdict).toBe('error');
});

test('a check that never ran because the run timed out is not judged, and the run has no verdict', () => {
  const report = buildConformanceReport(catalogue, [run('a.must', 'passed')], {
    ...meta,
    runStatus: 'timedout',
  });
  expect(report.clauses[1]).toMatchObject({ status: 'not-judged', reason: 'its test did not run: the run ended timedout' });
  expect(report.verdict).toBe('error');
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
