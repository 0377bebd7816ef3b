import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { history } from '../../run/commands.ts';
import { CLAUSE, historyLineOf } from '../support/history-lines.ts';

// `admin-api-conformance history FILE`, in process: each target's timeline, since when a target meets a profile,
// and which clauses regressed in the last run (exit 1 when one did); a damaged line is named and left out, and a
// file that cannot be read is exit code 2.

const dir = mkdtempSync(path.join(process.env.SELF_TESTS_SCRATCH ?? os.tmpdir(), 'history-command-'));

function historyFile(lines: (object | string)[]): string {
  const file = path.join(dir, `h-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return file;
}

async function ask(args: string[]): Promise<{ exitCode: number; out: string; err: string }> {
  let [out, err] = ['', ''];
  const exitCode = await history(args, { cwd: dir, output: { out: (t) => void (out += t), err: (t) => void (err += t) } });
  return { exitCode, out, err };
}

const broken = [historyLineOf('eu', 1, 'passed'), historyLineOf('us', 1, 'passed'), historyLineOf('eu', 2, 'failed'), historyLineOf('us', 2, 'passed')];

test('the timeline of each target names what regressed in its last run, and exits 1 when a clause did', async () => {
  const file = historyFile(broken);
  const all = await ask([file]);
  expect(all.exitCode).toBe(1);
  expect(all.out).toContain(`2030-01-02T00:00:00.000Z  run 2  FAIL  regressed ${CLAUSE}`);
  expect(all.out).toContain(`  last run: regressed: ${CLAUSE}`);
  const us = await ask([file, '--target', 'us']);
  expect([us.exitCode, us.out.split('\n')[0]]).toEqual([0, 'us (https://example.test): 2 runs']);
  expect(us.out).toContain('last run: nothing regressed');
});

test('--clause gives its outcome and transition run by run; --profile since when the target meets it', async () => {
  const file = historyFile([...broken, historyLineOf('eu', 3, 'passed'), historyLineOf('eu', 4, 'passed')]);
  const clause = await ask([file, '--target', 'eu', '--clause', CLAUSE]);
  expect(clause.out.split('\n').slice(1, 5)).toEqual([
    '  2030-01-01T00:00:00.000Z  run 1  passed  (new)',
    '  2030-01-02T00:00:00.000Z  run 2  failed  (regressed)',
    '  2030-01-03T00:00:00.000Z  run 3  passed  (fixed)',
    '  2030-01-04T00:00:00.000Z  run 4  passed  (unchanged)',
  ]);
  const profile = await ask([file, '--profile', 'core']);
  expect(profile.exitCode).toBe(0);
  expect(profile.out).toContain('  meets core since 2030-01-03T00:00:00.000Z (run run 3), 2 runs in a row');
  expect(profile.out).toContain('  meets core since its first run in the history (2030-01-01T00:00:00.000Z), 2 runs in a row');
  const failing = await ask([historyFile(broken), '--target', 'eu', '--profile', 'core']);
  expect(failing.out).toContain('  does not meet core in its last run (violated, 2030-01-02T00:00:00.000Z)');
});

test('a damaged line is named and left out; a file that cannot be read, or wrong arguments, are exit code 2', async () => {
  const damaged = await ask([historyFile([broken[0], 'not json', broken[1]])]);
  expect([damaged.exitCode, damaged.err]).toEqual([0, 'admin-api-conformance history: line 2 is not JSON; left out\n']);
  expect((await ask([path.join(dir, 'none.jsonl')])).exitCode).toBe(2);
  expect((await ask([dir])).err).toMatch(/is not a file/);
  expect((await ask([])).exitCode).toBe(2);
  expect((await ask([historyFile(broken), '--clause', 'no.such-clause'])).exitCode).toBe(2);
});
