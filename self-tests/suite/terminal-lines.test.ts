import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { clauseLine, lineOf } from '../../tests/terminal.ts';
import { referenceTargetEnv, runSuiteProcess } from '../support/run-suite.ts';

// What someone who never used Playwright reads in the terminal while a run's tests replay its verdicts: one line per
// clause, its status in the suite's words and its id; no test file locations, stack frames or error-context files,
// and a known deviation that is no failure. The lines as data first, then once as the command prints them.

/** A clause's test as a reporter is given it: its title, static annotations and project. */
const testOf = (id: string, project = '') => ({
  title: `a sentence of the document [${id}]`,
  annotations: [{ type: 'clause', description: id }],
  parent: { project: () => ({ name: project }) } as never,
});
const resultOf = (annotations: { type: string; description: string }[], status: 'passed' | 'failed' | 'skipped' = 'passed', error?: string) => ({
  annotations,
  status,
  error: error === undefined ? undefined : { message: error },
});
const lineFor = (status: string, extra: { type: string; description: string }[] = [], project = '') =>
  clauseLine(lineOf(testOf('a.clause', project), resultOf([{ type: 'status', description: status }, ...extra])));

test("each status is a line in the suite's words: ✘ only where the run falls short, a known deviation no failure", () => {
  expect(lineFor('passed')).toBe('  ✓ passed           a.clause  a sentence of the document');
  expect(lineFor('failed')).toBe('  ✘ failed           a.clause  a sentence of the document');
  expect(lineFor('errored')).toBe('  ✘ errored          a.clause  a sentence of the document');
  expect(lineFor('known-deviation')).toBe('  ~ known deviation  a.clause  a sentence of the document');
  expect(lineFor('not-exercised')).toBe('  - not exercised    a.clause  a sentence of the document');
  expect(lineFor('observed')).toBe('  - observed         a.clause  a sentence of the document');
  expect(lineFor('not-judged')).toBe('  - not judged       a.clause  a sentence of the document');
});

test("a target's project names it, a fleet's test says how many targets gave its status, a hostile name is escaped", () => {
  expect(lineFor('failed', [], 'staging')).toBe('  ✘ failed           staging: a.clause  a sentence of the document');
  expect(lineFor('failed', [{ type: 'targets', description: '5 of 50 targets' }])).toBe(
    '  ✘ failed           a.clause (5 of 50 targets)  a sentence of the document',
  );
  expect(lineFor('passed', [], 'evil\u001b[2J\nname')).toBe('  ✓ passed           evil\\u001b[2J\\nname: a.clause  a sentence of the document');
});

test('a test that replayed no verdict is errored with the first line of what stopped it, or not judged when it never ran', () => {
  const stopped = lineOf(testOf('a.clause'), resultOf([], 'failed', '\u001b[31mno verdicts: run the suite through its Playwright config\u001b[39m\n    at x'));
  expect(clauseLine(stopped)).toBe('  ✘ errored          a.clause  a sentence of the document: no verdicts: run the suite through its Playwright config');
  expect(clauseLine(lineOf(testOf('a.clause'), resultOf([], 'skipped')))).toBe('  - not judged       a.clause  a sentence of the document');
});

// Two clauses broken, one of them excused by the deviations file. The folder Playwright writes its by-products
// in is below the run's own TMPDIR, searched afterwards for error-context files.
test("a run as the command prints it: a line per clause, the violation as a failure and the excused one as a known deviation, nothing of Playwright's", async () => {
  const fault = FAULTS.find((f) => f.name === 'invalid-token-accepted')!;
  const [failing, excused] = fault.breaks;
  const { server, url } = await startReferenceServer(0, [fault]);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'conformance-terminal-'));
  try {
    const deviations = path.join(scratch, 'deviations.yaml');
    writeFileSync(deviations, `deviations:\n  - clause: ${excused}\n    reason: invalid tokens are let through on this path\n`);
    const tmp = mkdtempSync(path.join(scratch, 'tmp-'));
    const run = await runSuiteProcess(referenceTargetEnv(`${url}/variants/${fault.name}`, { CONFORMANCE_DEVIATIONS: deviations, TMPDIR: tmp }));
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const lines = run.stdout.split('\n');
    const catalogue = loadCatalogue();
    expect(lines).toContain(`${catalogue.length} clauses judged:`);
    for (const clause of catalogue)
      expect(
        lines.filter((l) => l.includes(` ${clause.id}  `)),
        clause.id,
      ).toHaveLength(1);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^  ✘ failed +${failing.replaceAll('.', '\\.')}  `)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^  ~ known deviation  ${excused.replaceAll('.', '\\.')}  `)));
    expect(lines.filter((l) => l.startsWith('  ✘ '))).toHaveLength(1);
    // None of Playwright's own: the spec file's location, a stack frame, a source line, the error-context prompt, its tally.
    for (const noise of ['clauses.spec', 'replay.ts', 'at replay', 'Error Context', 'error-context']) expect(run.stdout + run.stderr).not.toContain(noise);
    expect(run.stdout).not.toMatch(/^ {2}\d+ (passed|failed|skipped)/m);
    const written = readdirSync(tmp, { recursive: true }).map(String);
    expect(written.some((f) => f.endsWith('.last-run.json'))).toBe(true);
    expect(written.filter((f) => f.endsWith('error-context.md'))).toEqual([]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    rmSync(scratch, { recursive: true, force: true });
  }
});
