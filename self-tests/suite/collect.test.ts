import { expect, test } from '@playwright/test';
import { collected, staleAfterMinutes } from '../../commands/merge.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';

// A collected fleet's results differ in age: each is counted to the collection, and one older than the user's
// threshold is stale, which leaves a matrix that would pass without a verdict.

const target = (name: string, startedAt: string, verdict: MatrixReport['verdict'] = 'pass') => ({
  name,
  baseUrl: `https://${name}.invalid`,
  verdict,
  summary: {} as MatrixReport['targets'][number]['summary'],
  report: `targets/${name}/index.html`,
  startedAt,
});

const matrix = (verdict: MatrixReport['verdict'], targets: MatrixReport['targets']) => ({ verdict, targets, errors: [] }) as unknown as MatrixReport;

test('--stale-after takes minutes, hours or days, and nothing else', () => {
  expect(['90m', '24h', '7d', '0h', '1w', '24', '-1d', ' 1d', '1.5h'].map(staleAfterMinutes)).toEqual([
    90,
    1440,
    10080,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
});

test('a result older than --stale-after is marked, and a matrix that would pass has no verdict, naming it', () => {
  const now = '2026-11-27T12:00:00Z';
  const m = collected(matrix('pass', [target('eu', '2026-11-27T11:00:00Z'), target('us', '2026-11-20T12:00:00Z')]), now, { minutes: 24 * 60, given: '24h' });
  expect(m.targets.map((t) => t.stale)).toEqual([undefined, 'taken 7 d before this collection, longer ago than --stale-after 24h']);
  expect([m.verdict, m.errors[0], m.collectedAt]).toEqual(['partial', "1 of 2 targets' results are stale (us): judge them again", now]);
  expect(collected(matrix('fail', m.targets), now, { minutes: 60, given: '1h' }).verdict).toBe('fail');
  // Without a threshold nothing is stale, however old; a clock ahead of the collection's is no negative age.
  expect(collected(matrix('pass', [target('us', '2020-01-01T00:00:00Z'), target('ahead', '2026-11-27T13:00:00Z')]), now).verdict).toBe('pass');
});
