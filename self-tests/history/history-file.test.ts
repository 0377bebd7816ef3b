import { mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { historyOf } from '../../harness/config/history.ts';
import { ConfigError } from '../../harness/files/config-error.ts';
import { appendHistory, HISTORY_MAX_BYTES, HistoryFileError, kept, parseHistory, readHistory } from '../../reporters/history-file.ts';
import { bareUrl, type HistoryLine } from '../../reporters/history-line.ts';
import { CLAUSE, historyLineOf, JUDGE } from '../support/history-lines.ts';
import { transitionOf } from '../../reporters/transition.ts';

// The history file read as hostile input: a damaged line is named by its number and left out, never the whole
// file; a file too large, or no file, is refused in one line; the last runs of each target are kept; and a
// clause's transition is a pure function of the lines.

const scratch = () => mkdtempSync(path.join(process.env.SELF_TESTS_SCRATCH ?? os.tmpdir(), 'history-file-'));

const line = historyLineOf;

const text = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');

test('a damaged line is named by its number and left out; the lines around it are kept', () => {
  const read = parseHistory(
    text([line('a', 1, 'passed'), '{"historyVersion": 1', line('a', 2, 'failed'), { ...line('a', 3, 'passed'), verdict: 'great' }, '']),
  );
  expect(read.lines.map((l) => l.run)).toEqual(['run 1', 'run 2']);
  expect(read.damaged).toEqual(['line 2 is not JSON', expect.stringMatching(/^line 4: verdict /)]);
});

test('a history too large, or no file, is refused in one line; a missing one is empty', () => {
  const dir = scratch();
  const large = path.join(dir, 'large.jsonl');
  writeFileSync(large, '');
  truncateSync(large, HISTORY_MAX_BYTES + 1);
  expect(() => readHistory(large)).toThrow(HistoryFileError);
  expect(() => readHistory(large)).toThrow(/more than the 67108864 a history of this suite holds/);
  mkdirSync(path.join(dir, 'folder.jsonl'));
  expect(() => readHistory(path.join(dir, 'folder.jsonl'))).toThrow(/is not a file/);
  expect(readHistory(path.join(dir, 'none.jsonl'))).toEqual({ lines: [], damaged: [] });
});

test('the last runs of each target are kept, in the order they were appended, and damaged lines go', () => {
  const lines = [1, 2, 3, 4].flatMap((d) => [line('a', d, 'passed'), line('b', d, 'failed')]);
  expect(kept(lines, 2).map((l) => `${l.target.name} ${l.run}`)).toEqual(['a run 3', 'b run 3', 'a run 4', 'b run 4']);
  const file = path.join(scratch(), 'h.jsonl');
  writeFileSync(file, `${text([line('a', 1, 'passed'), 'not json', line('a', 2, 'passed')])}\n`);
  expect(appendHistory(file, [line('a', 3, 'failed')], 2)).toEqual(['line 2 is not JSON']);
  expect(parseHistory(readFileSync(file, 'utf8'))).toEqual({ lines: [line('a', 2, 'passed'), line('a', 3, 'failed')], damaged: [] });
});

test('a history kept in the report folder is refused, as the run clears it; the number of runs is bounded', () => {
  const dir = scratch();
  const variables = (env: Record<string, string>) => ({ env, dotenv: {}, dotenvFile: '.env' });
  expect(() => historyOf(variables({ CONFORMANCE_HISTORY: 'report/h.jsonl' }), dir, path.join(dir, 'report'))).toThrow(ConfigError);
  expect(() => historyOf(variables({ CONFORMANCE_HISTORY: 'h.jsonl', CONFORMANCE_HISTORY_RUNS: '1' }), dir, path.join(dir, 'report'))).toThrow(
    /from 2 to 1000/,
  );
  expect(() => historyOf(variables({ CONFORMANCE_HISTORY: 'h.jsonl', CONFORMANCE_STALE_AFTER: '1w' }), dir, path.join(dir, 'report'))).toThrow(
    /90m, 24h or 7d/,
  );
  expect(historyOf(variables({ CONFORMANCE_HISTORY: 'h.jsonl' }), dir, path.join(dir, 'report'))).toMatchObject({ runs: 50 });
});

test('a base URL keeps no credential, query or fragment', () => {
  expect(bareUrl('https://user:secret@example.test:8443/api?token=x#y')).toBe('https://example.test:8443/api');
});

test('transitions: new, unchanged, regressed, fixed; flaky only when the judge did not change; stale past the bound', () => {
  const now = (day: number, status: HistoryLine['clauses'][string], judge = JUDGE) => line('a', day, status, judge);
  expect(transitionOf(CLAUSE, [], now(1, 'failed'))).toBe('new');
  expect(transitionOf(CLAUSE, [now(1, 'passed')], now(2, 'passed'))).toBe('unchanged');
  expect(transitionOf(CLAUSE, [now(1, 'passed')], now(2, 'failed'))).toBe('regressed');
  expect(transitionOf(CLAUSE, [now(1, 'passed')], now(2, 'known-deviation'))).toBe('regressed');
  expect(transitionOf(CLAUSE, [now(1, 'failed')], now(2, 'passed'))).toBe('fixed');
  const flips = [now(1, 'passed'), now(2, 'failed'), now(3, 'passed')];
  expect(transitionOf(CLAUSE, flips, now(4, 'failed'))).toBe('flaky');
  // A run that did not judge it is passed over, neither a change nor a break.
  expect(transitionOf(CLAUSE, [...flips, now(4, 'not-judged')], now(5, 'failed'))).toBe('flaky');
  // Another text of the document between the changes: the changes before it say nothing of the target.
  const other = { ...JUDGE, document: 'b'.repeat(64) };
  expect(transitionOf(CLAUSE, [now(1, 'passed'), now(2, 'failed'), now(3, 'passed', other)], now(4, 'failed', other))).toBe('regressed');
  const week = { minutes: 7 * 24 * 60, given: '7d' };
  expect(transitionOf(CLAUSE, [now(1, 'passed')], now(20, 'not-judged'), week)).toBe('stale');
  expect(transitionOf(CLAUSE, [now(1, 'passed')], now(5, 'not-judged'), week)).toBe('unchanged');
});
