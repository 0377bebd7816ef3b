import { expect, test } from '@playwright/test';
import { parseRange, satisfies } from '../../harness/config/version-range.ts';

// Issue 41, point 2: the ranges a deviations file names its versions with, in npm's words, each form proven.

const holds = (version: string, range: string) => satisfies(version, parseRange(range));

/** Each form of range, with versions it holds and versions it does not. */
const CASES: { form: string; cases: [version: string, range: string, held: boolean][] }[] = [
  {
    form: 'an exact version holds itself alone',
    cases: [
      ['8.2.0', '8.2.0', true],
      ['8.2.1', '8.2.0', false],
      ['8.2.0', '=8.2.0', true],
      ['v8.2.0', '8.2.0', true],
    ],
  },
  {
    form: 'comparators joined by spaces must all hold; numbers compare as numbers, not as text',
    cases: [
      ...['6.10.1', '6.10.2', '7.0.0', '8.2.0'].map((v): [string, string, boolean] => [v, '>=6.10.1 <8.3.0', true]),
      ...['6.9.9', '6.2.0', '8.3.0', '10.0.0', '6.10.0'].map((v): [string, string, boolean] => [v, '>=6.10.1 <8.3.0', false]),
      ['5.12.8', '>5.12.5 <=5.12.8', true],
      ['5.12.5', '>5.12.5 <=5.12.8', false],
      ['6.10.1', '>= 6.10.1', true],
    ],
  },
  {
    form: '^ keeps the major (the minor under 1.0.0), ~ the minor',
    cases: [
      ['7.6.5', '^7.4.1', true],
      ['7.4.0', '^7.4.1', false],
      ['8.0.0', '^7.4.1', false],
      ['0.2.9', '^0.2.3', true],
      ['0.3.0', '^0.2.3', false],
      ['0.0.4', '^0.0.3', false],
      ['5.12.8', '~5.12.0', true],
      ['5.13.0', '~5.12.0', false],
    ],
  },
  {
    form: '|| joins alternatives, any of which may hold',
    cases: [
      ...['4.19.5', '6.10.1', '8.2.0'].map((v): [string, string, boolean] => [v, '4.19.5 || >=6.10.1 <7.0.0 || ^8.0.0', true]),
      ...['4.19.4', '7.4.1', '9.0.0'].map((v): [string, string, boolean] => [v, '4.19.5 || >=6.10.1 <7.0.0 || ^8.0.0', false]),
    ],
  },
  {
    form: 'a pre-release is in a range only where the range names a pre-release of its numbers',
    cases: [
      ['8.3.0-beta.1', '>=8.0.0', false],
      ['8.3.0-beta.2', '>=8.3.0-beta.1 <9.0.0', true],
      ['8.3.0-beta.1', '>=8.3.0-beta.2', false],
      ['8.3.0-beta.10', '>8.3.0-beta.9', true],
      ['8.3.0', '<8.3.0-beta.1', false],
    ],
  },
];

for (const { form, cases } of CASES) {
  test(form, () => {
    for (const [version, range, held] of cases) expect(holds(version, range), `${version} in ${range}`).toBe(held);
  });
}

test('what is not a version holds no range, and a range that is no range is named', () => {
  expect(holds('latest', '>=1.0.0')).toBe(false);
  expect(holds('8.2', '>=1.0.0')).toBe(false);
  expect(() => parseRange('>=8.2')).toThrow('">=8.2" is not a version');
  expect(() => parseRange('8.x')).toThrow('"8.x" is not a version');
  expect(() => parseRange('8.2.0 ||')).toThrow('empty alternative');
  expect(() => parseRange('1.0.0 '.repeat(50))).toThrow('at most 200');
});
