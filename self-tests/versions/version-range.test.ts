import { expect, test } from '@playwright/test';
import { parseRange, satisfies } from '../../harness/config/version-range.ts';

// Issue 41, point 2: the ranges a deviations file names its versions with, in npm's words, each form proven.

const holds = (version: string, range: string) => satisfies(version, parseRange(range));

test('an exact version holds itself alone', () => {
  expect(holds('8.2.0', '8.2.0')).toBe(true);
  expect(holds('8.2.1', '8.2.0')).toBe(false);
  expect(holds('8.2.0', '=8.2.0')).toBe(true);
  expect(holds('v8.2.0', '8.2.0')).toBe(true);
});

test('comparators joined by spaces must all hold; numbers compare as numbers, not as text', () => {
  const range = '>=6.10.1 <8.3.0';
  expect(['6.10.1', '6.10.2', '7.0.0', '8.2.0'].filter((v) => holds(v, range))).toEqual(['6.10.1', '6.10.2', '7.0.0', '8.2.0']);
  expect(['6.9.9', '6.2.0', '8.3.0', '10.0.0', '6.10.0'].filter((v) => holds(v, range))).toEqual([]);
  expect(holds('5.12.8', '>5.12.5 <=5.12.8')).toBe(true);
  expect(holds('5.12.5', '>5.12.5 <=5.12.8')).toBe(false);
  expect(holds('6.10.1', '>= 6.10.1')).toBe(true);
});

test('^ keeps the major (the minor under 1.0.0), ~ the minor', () => {
  expect(holds('7.6.5', '^7.4.1')).toBe(true);
  expect(holds('7.4.0', '^7.4.1')).toBe(false);
  expect(holds('8.0.0', '^7.4.1')).toBe(false);
  expect(holds('0.2.9', '^0.2.3')).toBe(true);
  expect(holds('0.3.0', '^0.2.3')).toBe(false);
  expect(holds('0.0.4', '^0.0.3')).toBe(false);
  expect(holds('5.12.8', '~5.12.0')).toBe(true);
  expect(holds('5.13.0', '~5.12.0')).toBe(false);
});

test('|| joins alternatives, any of which may hold', () => {
  const range = '4.19.5 || >=6.10.1 <7.0.0 || ^8.0.0';
  expect(['4.19.5', '6.10.1', '8.2.0'].every((v) => holds(v, range))).toBe(true);
  expect(['4.19.4', '7.4.1', '9.0.0'].some((v) => holds(v, range))).toBe(false);
});

test('a pre-release is in a range only where the range names a pre-release of its numbers', () => {
  expect(holds('8.3.0-beta.1', '>=8.0.0')).toBe(false);
  expect(holds('8.3.0-beta.2', '>=8.3.0-beta.1 <9.0.0')).toBe(true);
  expect(holds('8.3.0-beta.1', '>=8.3.0-beta.2')).toBe(false);
  expect(holds('8.3.0-beta.10', '>8.3.0-beta.9')).toBe(true);
  expect(holds('8.3.0', '<8.3.0-beta.1')).toBe(false);
});

test('what is not a version holds no range, and a range that is no range is named', () => {
  expect(holds('latest', '>=1.0.0')).toBe(false);
  expect(holds('8.2', '>=1.0.0')).toBe(false);
  expect(() => parseRange('>=8.2')).toThrow('">=8.2" is not a version');
  expect(() => parseRange('8.x')).toThrow('"8.x" is not a version');
  expect(() => parseRange('8.2.0 ||')).toThrow('empty alternative');
  expect(() => parseRange('1.0.0 '.repeat(50))).toThrow('at most 200');
});
