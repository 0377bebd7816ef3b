import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { EXCHANGES, REPORTS } from '../../harness/evidence/bundle.ts';
import type { ShardOfRun } from '../../harness/judging/verdicts.ts';
import { summaryOf, verdictOf, type ConformanceReport } from '../../reporters/conformance-result.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { merge } from '../../run/commands.ts';
import { mergeShards, type ShardReports } from '../../commands/merge.ts';
import { bundleOf, referenceBundle, removeScratch, scratch } from '../support/in-process-bundle.ts';
import { runCommand } from '../support/run-suite.ts';
import { shardFolder, writeMatrix, writeTarget } from '../support/shard-folders.ts';

// A merge's verdict is only as good as what it reads, and a shard's report folder is hostile input: each target's
// bundle is judged again as verify judges it, and holds the run, the shard and the targets its shard's matrix
// names, a refused merge leaves no earlier verdict standing, a result dated after its collection is stale, and every
// entry of a folder of shards is read or refused in one line. Shards are made in process, as a sharded run writes them.

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
const [broken] = fault.breaks;
const TARGETS = ['eu', 'us', 'ap'];
const place = (run: string, shard: string, runTargets = TARGETS): ShardOfRun => ({ run, shard, runTargets });
test.afterAll(removeScratch);

/** The two shards of a run, in `shard-1` and `shard-2` below a folder of their own, as CI's artifacts arrive. */
function shardsOf(run: string, options: Parameters<typeof shardFolder>[2] = {}): string {
  const into = scratch();
  shardFolder(path.join(into, 'shard-1'), place(run, '1/2'), options);
  shardFolder(path.join(into, 'shard-2'), place(run, '2/2'), options);
  return into;
}

const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;

test('a merge of shards made in process passes: the shards hold their run, and every bundle verifies', async () => {
  const merged = await runCommand(['merge', shardsOf('nightly 7')]);
  expect(merged.exitCode, merged.stdout + merged.stderr).toBe(0);
  expect((merged.report as unknown as MatrixReport).targets.map((t) => [t.name, t.verdict])).toEqual(TARGETS.map((t) => [t, 'pass']));
});

/** The target's failing bundle forged to pass: its report's failures made passes, every rendering and digest made to match. */
function forgedToPass(name: string, shard: ShardOfRun): Map<string, Buffer> {
  const honest = referenceBundle({ name, variant: fault, shard });
  const report = JSON.parse(honest.get(`${REPORTS}/conformance.json`)!.toString('utf8')) as ConformanceReport;
  expect(report.verdict).toBe('fail');
  const clauses = report.clauses.map((c) => (c.status === 'failed' ? { ...c, status: 'passed' as const, evidence: undefined } : c));
  const forged = { ...report, clauses, summary: summaryOf(clauses), verdict: verdictOf({ ...report, clauses }) };
  expect(forged.verdict).toBe('pass');
  return bundleOf(honest.get(EXCHANGES)!, forged, JSON.parse(honest.get('manifest.json')!.toString('utf8')).judgedOn);
}

test('merge judges verdicts, not digests: a shard whose failed clause was made passed, every digest recomputed, is refused naming the target and the difference', async () => {
  const into = shardsOf('nightly 7', { us: { variant: fault } });
  const honest = await runCommand(['merge', into]);
  expect(honest.exitCode, honest.stdout + honest.stderr).toBe(1);
  const shard = path.join(into, 'shard-2');
  const forged = writeTarget(shard, 'us', forgedToPass('us', place('nightly 7', '2/2')));
  writeMatrix(shard, place('nightly 7', '2/2'), [forged]);
  const merged = await runCommand(['merge', into]);
  expect([merged.exitCode, merged.stdout, merged.stderr]).toEqual([
    3,
    '',
    `admin-api-conformance: the evidence bundle of us does not hold: clause ${broken}: the bundle's report says passed, its exchanges give failed\n`,
  ]);
});

test("the run's identity is in what each bundle covers: a shard's run id changed in its matrix alone is refused, naming the target and both runs", async () => {
  const into = scratch();
  shardFolder(path.join(into, 'shard-1'), place('nightly 7', '1/2'));
  const other = shardFolder(path.join(into, 'shard-2'), place('nightly 8', '2/2'));
  const refused = await runCommand(['merge', into]);
  expect(refused.exitCode).toBe(3);
  const matrix = path.join(other, 'conformance.json');
  writeFileSync(matrix, readFileSync(matrix, 'utf8').replace('"run": "nightly 8"', '"run": "nightly 7"'));
  const merged = await runCommand(['merge', into]);
  expect([merged.exitCode, merged.stderr]).toEqual([
    3,
    'admin-api-conformance: no verdict: us is not a target of the run its shard names: its evidence bundle says it was judged in run "nightly 8", and it came in the report folder of run "nightly 7"\n',
  ]);
});

test("the run's identity is in what each bundle covers: a failing target left out of both shards' matrices, or moved to the other shard, is refused", async () => {
  const into = shardsOf('nightly 7', { ap: { variant: fault } });
  // The run of three as one of two: ap (failing) dropped from the run's targets and from shard 1's list.
  for (const shard of ['shard-1', 'shard-2']) {
    const file = path.join(into, shard, 'conformance.json');
    const matrix = JSON.parse(readFileSync(file, 'utf8')) as MatrixReport;
    const kept = { ...matrix, runTargets: ['eu', 'us'], targets: matrix.targets.filter((t) => t.name !== 'ap') };
    writeFileSync(file, JSON.stringify(kept));
  }
  const dropped = await runCommand(['merge', into]);
  expect([dropped.exitCode, dropped.stderr]).toEqual([
    3,
    "admin-api-conformance: no verdict: eu is not a target of the run its shard names: its evidence bundle names other targets for its run than its shard's report folder does\n",
  ]);
  // eu, judged in shard 1, carried into shard 2's folder and listed there.
  const moved = shardsOf('nightly 7');
  rmSync(path.join(moved, 'shard-1', 'targets', 'eu'), { recursive: true });
  const eu = writeTarget(path.join(moved, 'shard-2'), 'eu', referenceBundle({ name: 'eu', shard: place('nightly 7', '1/2') }));
  writeMatrix(path.join(moved, 'shard-2'), place('nightly 7', '2/2'), [eu, readReport(path.join(moved, 'shard-2', 'targets', 'us', 'conformance.json'))]);
  writeMatrix(path.join(moved, 'shard-1'), place('nightly 7', '1/2'), [readReport(path.join(moved, 'shard-1', 'targets', 'ap', 'conformance.json'))]);
  const carried = await runCommand(['merge', moved]);
  expect([carried.exitCode, carried.stderr]).toEqual([
    3,
    'admin-api-conformance: no verdict: eu is not a target of the run its shard names: its evidence bundle says it was judged in shard 1/2, and it came in the report folder of shard 2/2\n',
  ]);
});

/** Runs merge in this process into the report folder `out`: its exit code and error lines. */
async function mergeInto(out: string, args: string[]): Promise<{ exitCode: number; stderr: string }> {
  let stderr = '';
  const exitCode = await merge(args, { env: { CONFORMANCE_REPORT_DIR: out }, cwd: scratch(), output: { out: () => {}, err: (t) => void (stderr += t) } });
  return { exitCode, stderr };
}

test("a refused merge leaves its error report in the report folder: the last merge's PASS no longer stands, and no file of the user's is touched", async () => {
  const out = path.join(scratch(), 'merged');
  const into = shardsOf('nightly 7');
  expect((await mergeInto(out, [into])).exitCode).toBe(0);
  expect(readReport(path.join(out, 'conformance.json')).verdict).toBe('pass');
  writeFileSync(path.join(out, 'notes.md'), 'our own notes\n');
  const shard = path.join(into, 'shard-2');
  writeMatrix(shard, place('nightly 7', '2/2'), [writeTarget(shard, 'us', forgedToPass('us', place('nightly 7', '2/2')))]);
  // The target us fails in its exchanges: a forged pass is refused, exit code 3.
  const fails = referenceBundle({ name: 'us', variant: fault, shard: place('nightly 7', '2/2') });
  expect(JSON.parse(fails.get(`${REPORTS}/conformance.json`)!.toString('utf8')).verdict).toBe('fail');
  const refused = await mergeInto(out, [into]);
  expect(refused.exitCode).toBe(3);
  const report = readReport(path.join(out, 'conformance.json'));
  expect([report.verdict, report.errors]).toEqual(['error', [`the merge was refused: ${refused.stderr.trim().replace('admin-api-conformance: ', '')}`]]);
  // The badge says the refused merge's verdict, and nowhere the last merge's PASS.
  const badge = readFileSync(path.join(out, 'badge.svg'), 'utf8');
  expect(badge).toContain('>ERROR<');
  expect(badge).not.toContain('PASS');
  expect(readFileSync(path.join(out, 'index.html'), 'utf8')).not.toContain('>PASS<');
  // The last merge's targets are gone with its verdict; the user's own file stays.
  expect(readdirSync(out).sort()).toEqual([
    '.conformance-run.json',
    'badge.svg',
    'conformance.json',
    'ctrf.json',
    'index.html',
    'junit.xml',
    'notes.md',
    'summary.md',
    'targets',
  ]);
  expect(readdirSync(path.join(out, 'targets'))).toEqual([]);
  // A mistake in the command line (exit code 2) is refused the same way; a report folder that is a shard's is left as it is.
  expect((await mergeInto(out, ['--stale-after=soon', into])).exitCode).toBe(2);
  expect(readReport(path.join(out, 'conformance.json')).errors[0]).toMatch(/^the merge was refused: merge: --stale-after takes/);
  const before = readFileSync(path.join(into, 'shard-1', 'conformance.json'), 'utf8');
  expect((await mergeInto(path.join(into, 'shard-1'), [into])).exitCode).toBe(2);
  expect(readFileSync(path.join(into, 'shard-1', 'conformance.json'), 'utf8')).toBe(before);
});

test('a result dated after its collection is stale under --stale-after, in words that say so; a few minutes of clock skew are not', async () => {
  const ahead = await runCommand(['merge', '--stale-after', '24h', shardsOf('nightly 7', { us: { now: Date.now() + 3.5 * 3600_000 } })]);
  expect(ahead.exitCode, ahead.stdout + ahead.stderr).toBe(3);
  expect((ahead.report as unknown as MatrixReport).targets.map((t) => [t.name, t.stale])).toEqual([
    ['eu', undefined],
    ['us', 'dated 3 h after this collection, so its age cannot be held to --stale-after 24h: a clock is wrong, or the report was changed'],
    ['ap', undefined],
  ]);
  const skewed = await runCommand(['merge', '--stale-after', '24h', shardsOf('nightly 7', { us: { now: Date.now() + 2 * 60_000 } })]);
  expect(skewed.exitCode, skewed.stdout + skewed.stderr).toBe(0);
});

test('merge of a folder holding a dangling link or a link loop: every unreadable entry is one line, exit code 2 or 3, never a stack', async () => {
  const cases: [string, (into: string) => string, number, (into: string) => string][] = [
    [
      'a dangling link',
      (into) => (symlinkSync('/nonexistent-shard', path.join(into, 'shard-3')), into),
      3,
      (into) => `merge: ${into}/shard-3 cannot be read (a link to nothing): a shard's report folder may lie behind it`,
    ],
    [
      'a link loop',
      (into) => (symlinkSync(path.join(into, 'loop'), path.join(into, 'loop')), into),
      3,
      (into) => `merge: ${into}/loop cannot be read (a link loop): a shard's report folder may lie behind it`,
    ],
    [
      'a folder given that is a link loop',
      (into) => (symlinkSync(path.join(into, 'self'), path.join(into, 'self')), path.join(into, 'self')),
      2,
      (into) => `merge: ${into}/self cannot be read (a link loop)`,
    ],
    [
      "a shard's conformance.json that is a dangling link",
      (into) => {
        mkdirSync(path.join(into, 'shard-3'));
        symlinkSync('/nonexistent-report', path.join(into, 'shard-3', 'conformance.json'));
        return into;
      },
      3,
      (into) => `merge: ${into}/shard-3/conformance.json cannot be read (a link to nothing)`,
    ],
    [
      "a link planted in a target's report folder",
      (into) => (symlinkSync('/etc', path.join(into, 'shard-1', 'targets', 'eu', 'elsewhere')), into),
      3,
      (into) => `the report folder of eu holds a link (${into}/shard-1/targets/eu/elsewhere); a report folder holds files and folders only`,
    ],
  ];
  for (const [title, plant, exitCode, line] of cases) {
    const into = shardsOf('nightly 7');
    const given = plant(into);
    const merged = await runCommand(['merge', given]);
    expect([title, merged.exitCode, merged.stdout, merged.stderr]).toEqual([title, exitCode, '', `admin-api-conformance: ${line(into)}\n`]);
  }
});

// Shards of one run are judged by one judge: the suite, its contracts and the text of the document. Where they differ,
// the refusal names what differs, for each shard: a text of the document by its digest.
test('shards judged against two texts of the document are refused naming each text, never with the same words for both', () => {
  const shardOf = (shard: string, sha256: string): ShardReports => ({
    matrix: {
      kind: 'matrix',
      shard,
      runTargets: ['a', 'b'],
      run: 'r',
      targets: [],
      suite: { version: '1', contractsHash: 'c' },
      document: { sha256 },
      durationMs: 1,
    },
    targets: [],
  });
  const merged = mergeShards([shardOf('1/2', 'a'.repeat(64)), shardOf('2/2', 'b'.repeat(64))]);
  expect(merged).toEqual({
    refused: `the report folders are not of one run: shard 2/2 was judged against the text of the document of SHA-256 ${'b'.repeat(64)}, shard 1/2 against ${'a'.repeat(64)}: one run is judged against one text`,
  });
});
