import { expect, test } from '@playwright/test';
import { readArguments } from '../../commands/arguments.ts';

// verify, merge and diff read their own arguments one way (commands/arguments.ts): positionals and options as
// node:util's parseArgs reads them, each mistake one line.

const OPTIONS = { anyway: 'flag', key: 'value' } as const;
const USAGE = 'usage: cmd <bundle> [--anyway] [--key <file>]';
const read = (...args: string[]) => {
  const given = readArguments(args, OPTIONS, USAGE);
  return 'mistake' in given ? given.mistake : { positionals: given.positionals, anyway: given.flag('anyway'), key: given.value('key') };
};

test('positionals and options stand in any order, a value after its option or after =, and -- ends the options', () => {
  expect(read('b', '--key', 'k.pem', '--anyway')).toEqual({ positionals: ['b'], anyway: true, key: 'k.pem' });
  expect(read('--key=k.pem', 'b')).toEqual({ positionals: ['b'], anyway: false, key: 'k.pem' });
  expect(read('--', '-b')).toEqual({ positionals: ['-b'], anyway: false, key: undefined });
  // After =, a value may start with a dash: it was given as one.
  expect(read('b', '--key=-k.pem')).toEqual({ positionals: ['b'], anyway: false, key: '-k.pem' });
  // A negative number is a value, for its option to refuse in its own words (--keep -1: a whole number from 1).
  expect(read('b', '--key', '-1')).toEqual({ positionals: ['b'], anyway: false, key: '-1' });
});

const MISTAKES: [string[], string][] = [
  [['b', '--unknown'], USAGE],
  [['b', '-x'], USAGE],
  [['b', '--anyway=yes'], USAGE],
  [['b', '--anyway', '--anyway'], '--anyway is given twice: give it once'],
  [['b', '--key', 'a', '--key=b'], '--key is given twice: give it once'],
  [['b', '--key'], `--key needs a value; ${USAGE}`],
  [['b', '--key='], `--key needs a value; ${USAGE}`],
  // The key was forgotten, not named "--anyway".
  [['b', '--key', '--anyway'], `--key needs a value; ${USAGE}`],
];

for (const [args, mistake] of MISTAKES)
  test(`${JSON.stringify(args)} is the one line "${mistake}"`, () => {
    expect(read(...args)).toBe(mistake);
  });
