import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REPORTS } from '../../harness/evidence/bundle.ts';
import { ConfigError } from '../../harness/files/config-error.ts';
import { verifyBundle } from '../../readers/verify.ts';
import { loadRun } from '../../run/prepare.ts';
import { referenceBundle, removeScratch, scratch, withFile } from '../support/in-process-bundle.ts';
import { runCommand } from '../support/run-suite.ts';

// Whatever report, bundle or baseline the suite is handed is read within bounds of size, depth and count, and each
// refusal is one line: a report nesting thousands of levels deep used to overflow the stack (diff exit 1, "regressed";
// as a baseline, every request sent and then "the reports could not be written"), and a report of 480 MB took minutes
// and gigabytes to be read at all.

const good = referenceBundle();
const CONFORMANCE = `${REPORTS}/conformance.json`;
const reportText = good.get(CONFORMANCE)!.toString('utf8');
test.afterAll(removeScratch);

/** The reference report with an INFO clause's observation nesting `depth` arrays deep, written as text: no recursion writes it. */
function nested(depth: number): string {
  const report = JSON.parse(reportText);
  const observed = report.clauses.find((c: { level: string }) => c.level === 'INFO');
  observed.evidence = { clause: observed.id, outcome: 'passed', instances: 1, violations: [], violationsCut: 0, unevaluable: [], observations: 'DEEP' };
  return JSON.stringify(report, null, 2).replace('"DEEP"', `${'['.repeat(depth)}${']'.repeat(depth)}`);
}

function file(name: string, text: string): string {
  const dir = scratch();
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

function baselineRefusal(baseline: string): string | undefined {
  try {
    loadRun({ CONFORMANCE_EMBEDDED: 'true', CONFORMANCE_BASELINE: baseline, CONFORMANCE_REPORT_DIR: path.join(scratch(), 'r') }, scratch());
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

test('reading reports is bounded by depth: a report nesting 5,000 levels is one line for diff (exit code 2) and a baseline, before anything is sent', async () => {
  expect(nested(5000)).not.toBe(reportText);
  const deep = file('conformance.json', nested(5000));
  const line = `${deep} cannot be read: it nests deeper than 1024 levels, as no report does`;
  const diff = await runCommand(['diff', deep, file('conformance.json', reportText)]);
  expect([diff.exitCode, diff.stdout, diff.stderr]).toEqual([2, '', `admin-api-conformance diff: ${line}\n`]);
  expect(baselineRefusal(deep)).toBe(`CONFORMANCE_BASELINE: ${line}`);
  // As deep as a report of a target's deepest body is read.
  const deepest = file('conformance.json', nested(600));
  const within = await runCommand(['diff', deepest, file('conformance.json', reportText)]);
  expect(within.exitCode, within.stderr).toBe(0);
});

test("reading reports is bounded by depth: a bundle's report nesting 5,000 levels, its digest matching, is a difference", () => {
  const { differences } = verifyBundle(withFile(good, CONFORMANCE, nested(5000)));
  expect(differences).toEqual([`${CONFORMANCE} in the bundle nests deeper than 1024 levels, as no file of a run does`]);
});

test('reading reports is bounded by size: a report of 480 MB is refused by its size, before a byte is read', async () => {
  const big = file('conformance.json', '{');
  truncateSync(big, 480_000_000);
  const diff = await runCommand(['diff', big, file('conformance.json', reportText)]);
  expect([diff.exitCode, diff.stderr]).toEqual([
    2,
    `admin-api-conformance diff: ${big} cannot be read: it holds 480000000 bytes, more than the 67108864 this suite reads of a report\n`,
  ]);
  expect(baselineRefusal(path.dirname(big))).toBe(
    `CONFORMANCE_BASELINE: ${big} cannot be read: it holds 480000000 bytes, more than the 67108864 this suite reads of a report`,
  );
});

test('reading reports is bounded by count: a matrix listing more than 100,000 targets is refused before any of their reports is read', async () => {
  const dir = scratch();
  mkdirSync(path.join(dir, 'targets'));
  const targets = Array.from({ length: 100_001 }, (_, i) => ({ name: `t${i}`, report: `targets/t${i}/index.html` }));
  writeFileSync(path.join(dir, 'conformance.json'), JSON.stringify({ kind: 'matrix', targets }));
  const diff = await runCommand(['diff', dir, file('conformance.json', reportText)]);
  expect([diff.exitCode, diff.stderr]).toEqual([
    2,
    `admin-api-conformance diff: ${dir}/conformance.json lists 100001 targets, more than the 100000 this suite reads of a run\n`,
  ]);
});

test('reading reports is bounded: a pipe or a device given as a report is refused in one line, never waited on', async () => {
  const diff = await runCommand(['diff', '/dev/zero', file('conformance.json', reportText)]);
  expect([diff.exitCode, diff.stderr]).toEqual([2, 'admin-api-conformance diff: /dev/zero cannot be read (not a regular file)\n']);
});

test("reading reports is bounded by depth and size: a shard's conformance.json nesting 5,000 levels, or of 480 MB, ends a merge in one line, exit code 3", async () => {
  const deep = file('conformance.json', `{"kind": "matrix", "x": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
  const merged = await runCommand(['merge', path.dirname(deep)]);
  expect([merged.exitCode, merged.stdout, merged.stderr]).toEqual([
    3,
    '',
    `admin-api-conformance: ${deep} cannot be read: it nests deeper than 1024 levels, as no report does\n`,
  ]);
  const big = file('conformance.json', '{');
  truncateSync(big, 480_000_000);
  const large = await runCommand(['merge', path.dirname(big)]);
  expect([large.exitCode, large.stderr]).toEqual([
    3,
    `admin-api-conformance: ${big} cannot be read: it holds 480000000 bytes, more than the 67108864 this suite reads of a report\n`,
  ]);
});
