import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { closest } from '../../harness/files/closest.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// "Did you mean": the name a user meant, by the words it shares before the letters; none when nothing is near.

const VARIABLES: string[] = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'harness', 'config', 'variables.json'), 'utf8')).variables.map(
  (v: { name: string }) => v.name,
);

const CASES: [string, string | undefined][] = [
  // A word left out: the variable that has every word of the name, never the one a few letters away.
  ['CONFORMANCE_URL', 'CONFORMANCE_BASE_URL'],
  ['CONFORMANCE_TOKEN', 'CONFORMANCE_ADMIN_TOKEN'],
  // Letters slipped, or words run together: the fewest edits.
  ['CONFORMANCE_BASEURL', 'CONFORMANCE_BASE_URL'],
  ['CONFORMACE_BASE_URL', 'CONFORMANCE_BASE_URL'],
  ['CONFORMANCE_CLAM', 'CONFORMANCE_CLAIM'],
  ['CONFORMANCE_SHARDS', 'CONFORMANCE_SHARD'],
  // Nothing near: no guess.
  ['CONFORMANCE_COLOUR_OF_THE_SKY', undefined],
];

for (const [name, meant] of CASES)
  test(`${name} suggests ${meant ?? 'nothing'}`, () => {
    expect(closest(name, VARIABLES)).toBe(meant);
  });

test('names of other kinds are matched by their words too: a fault, a gate', () => {
  expect(closest('regression', ['must', 'regressions'])).toBe('regressions');
  expect(closest('token-enabled', ['expired-token-enabled', 'project-health-above-100'])).toBe('expired-token-enabled');
  expect(closest('zzz', ['must', 'regressions'])).toBeUndefined();
});
