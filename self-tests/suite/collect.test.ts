import { expect, test } from '@playwright/test';
import { collected, staleAfterMinutes } from '../../commands/merge.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';

// A collected fleet's results differ in age: each is counted to the collection, and one older than the user's
// threshold, or taken against another version than the one deployed now, is stale, which leaves a matrix that would pass without a verdict.

const target = (name: string, startedAt: string, version?: string) => ({
  name,
  baseUrl: `https://${name}.invalid`,
  verdict: 'pass' as const,
  summary: {} as MatrixReport['targets'][number]['summary'],
  report: `targets/${name}/index.html`,
  startedAt,
  product: version === undefined ? undefined : { name: 'Unleash', version },
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
  const m = collected(matrix('pass', [target('eu', '2026-11-27T11:00:00Z'), target('us', '2026-11-20T12:00:00Z')]), now, {
    staleAfter: { minutes: 24 * 60, given: '24h' },
  });
  expect(m.targets.map((t) => t.stale)).toEqual([undefined, 'taken 7 d before this collection, longer ago than --stale-after 24h']);
  expect([m.verdict, m.errors[0], m.collectedAt]).toEqual(['partial', "1 of 2 targets' results are stale (us): judge them again", now]);
  expect(collected(matrix('fail', m.targets), now, { staleAfter: { minutes: 60, given: '1h' } }).verdict).toBe('fail');
  // Without a threshold nothing is stale, however old; a clock ahead of the collection's is no negative age.
  expect(collected(matrix('pass', [target('us', '2020-01-01T00:00:00Z'), target('ahead', '2026-11-27T13:00:00Z')]), now).verdict).toBe('pass');
});

test('a result taken against another version than the fleet file says is deployed now is stale', () => {
  const now = '2026-11-27T12:00:00Z';
  const targets = [target('eu', now, '8.2.0'), target('us', now, '8.1.0'), target('ap', now), target('sa', now, '8.1.0')];
  const m = collected(matrix('pass', targets), now, {
    deployed: new Map([
      ['eu', '8.2.0'],
      ['us', '8.2.0'],
      ['ap', '8.2.0'],
    ]),
  });
  expect(m.targets.map((t) => t.stale)).toEqual([
    undefined,
    'taken against version 8.1.0; 8.2.0 is deployed now',
    'taken against no stated version; 8.2.0 is deployed now',
    // The fleet file states no version for it: nothing to compare.
    undefined,
  ]);
  expect(m.verdict).toBe('partial');
});
