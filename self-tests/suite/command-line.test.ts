import { expect, test } from '@playwright/test';
import { runCommand } from '../support/run-suite.ts';

// What the command does with its own arguments: a word that is no command, or a merge with nothing to
// merge, is one line and exit code 2 before Playwright starts, never a run of the suite.

test('a word that is no command is refused in one line that names the command meant, exit code 2, and nothing runs', async () => {
  const cases: [string[], string][] = [
    [['verfiy', 'evidence.tar.gz'], 'unknown command "verfiy"; did you mean "verify"?'],
    [['mrege', 'all-blob-reports'], 'unknown command "mrege"; did you mean "merge"?'],
    [['clauses'], 'unknown command "clauses": the commands are run, merge and verify'],
  ];
  for (const [args, line] of cases) {
    const run = await runCommand(args);
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(line)]);
    expect(run.stdout).toBe('');
  }
});

test("an option's value is no command: --grep @MUST before -- reaches Playwright, as npm passes it", async () => {
  // A shard Playwright refuses stops the run before any request; the point is who read "@MUST".
  const run = await runCommand(['--grep', '@MUST', '--shard=0/2']);
  expect(run.stderr).not.toContain('unknown command');
  expect(run.stderr).toContain('--shard "0/2"');
});

test('merge refuses in one line, exit code 2, a folder that is missing, a file, or holds no blob report', async () => {
  const cases: [string, string][] = [
    ['/nonexistent-blob-reports', 'merge: there is no folder /nonexistent-blob-reports'],
    [import.meta.filename, `merge: ${import.meta.filename} is a file`],
    [import.meta.dirname, `merge: ${import.meta.dirname} holds no blob report (.zip)`],
  ];
  for (const [folder, line] of cases) {
    const run = await runCommand(['merge', folder]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(line)]);
  }
});
