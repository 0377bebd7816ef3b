import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { commandEnv, noteRun, PROJECT_ROOT, runCommand, runSuite, type SuiteRun } from '../support/run-suite.ts';

// Shards split a run's targets: each judges its own targets whole, every request sent once, and the merge
// of their report folders is the run's report. What a merge cannot vouch for is no verdict.

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
let server: Awaited<ReturnType<typeof startReferenceServer>>;
let dir: string;
let files: string[];
test.beforeAll(async () => {
  server = await startReferenceServer(0, [fault]);
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-shards-'));
  files = ['faithful', 'broken', 'spare'].map((name) => {
    const file = path.join(dir, `${name}.yaml`);
    const url = name === 'broken' ? `${server.url}/variants/${fault.name}` : server.url;
    const { adminToken, forbiddenToken, signupTokens } = REFERENCE_FIXTURES;
    writeFileSync(
      file,
      `name: ${name}\nbaseUrl: ${url}\nadminToken: ${adminToken}\nforbiddenToken: ${forbiddenToken}\nsignupTokens: [${signupTokens.join(', ')}]\n`,
    );
    return file;
  });
});
test.afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.server.close(() => resolve()));
});

/** The identity the shards of one run share. */
const RUN = { CONFORMANCE_RUN_ID: 'nightly 41' };

// The tests that merge the shards of that run share them, made once: they share one worker, and copy a shard's
// report folder before they change anything in it (gather).
test.describe.configure({ mode: 'default' });
const shardsOfRun = new Map<number, Promise<SuiteRun>>();
/**
 * Shard i/2 of the run named RUN, given its share by CONFORMANCE_SHARD, judged in this process. The command's
 * --shard=i/n is taken as that variable (suite/command-line.test.ts); the shards recipe runs it in processes of
 * their own, as CI jobs (package/ci.test.ts).
 */
function shardOfRun(i: 1 | 2): Promise<SuiteRun> {
  const env = { CONFORMANCE_TARGETS: files.join(','), ...RUN };
  if (!shardsOfRun.has(i)) shardsOfRun.set(i, runSuite({ ...env, CONFORMANCE_SHARD: `${i}/2` }));
  return shardsOfRun.get(i)!;
}

const matrixOf = (run: { report?: unknown }) => run.report as MatrixReport | undefined;

/** Each shard's report folder copied into a folder of its own below `into`, as CI's artifacts arrive. */
function gather(into: string, shards: { reportDir: string }[]): string {
  for (const [i, shard] of shards.entries()) cpSync(shard.reportDir, path.join(into, `shard-${i + 1}`), { recursive: true });
  return into;
}

test('shards judge their own targets whole, and merged give the report of one run of every target', async () => {
  const targets = files.join(',');
  const [one, first, second] = await Promise.all([runSuite({ CONFORMANCE_TARGETS: targets }), shardOfRun(1), shardOfRun(2)]);
  // Every n-th target from the i-th: faithful and spare in the first shard, broken in the second.
  expect(matrixOf(first)?.targets.map((t) => [t.name, t.verdict])).toEqual([
    ['faithful', 'pass'],
    ['spare', 'pass'],
  ]);
  // A shard that finds nothing wrong has no verdict of the run; one that finds a violation fails.
  expect([first.exitCode, matrixOf(first)?.verdict]).toEqual([3, 'partial']);
  expect([second.exitCode, matrixOf(second)?.verdict]).toEqual([1, 'fail']);
  expect(first.stdout).toContain(
    "Conformance matrix of shard 1/2: PARTIAL, 2 of 2 targets pass (the run has 3: merge the shards' report folders for its verdict)",
  );
  const into = mkdtempSync(path.join(os.tmpdir(), 'conformance-shards-merge-'));
  try {
    const merged = await runCommand(['merge', gather(into, [first, second])]);
    expect(merged.exitCode, merged.stdout + merged.stderr).toBe(1);
    const matrix = matrixOf(merged)!;
    const one_ = matrixOf(one)!;
    expect(matrix.targets.map((t) => [t.name, t.verdict, t.summary])).toEqual(one_.targets.map((t) => [t.name, t.verdict, t.summary]));
    expect(matrix.clauses).toEqual(one_.clauses);
    expect(matrix.shard).toBeUndefined();
    expect(merged.stdout).toContain('Conformance matrix, merged: FAIL, 2 of 3 targets pass');
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
});

test('a merge that lacks a shard is no verdict, exit code 3, naming the targets not judged', async () => {
  const first = await shardOfRun(1);
  const into = mkdtempSync(path.join(os.tmpdir(), 'conformance-shards-merge-'));
  try {
    const merged = await runCommand(['merge', gather(into, [first])]);
    expect(merged.exitCode, merged.stdout + merged.stderr).toBe(3);
    expect(matrixOf(merged)?.verdict).toBe('partial');
    expect(matrixOf(merged)?.errors[0]).toBe("no report of 1 of the run's 3 targets (broken): merge every shard's report folder");
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
});

test('shards of two runs, or one shard twice, are refused in one line, exit code 3, and the report folder holds the refusal', async () => {
  const [ofThree, ofTwo, rerun] = await Promise.all([
    shardOfRun(1),
    runSuite({ CONFORMANCE_TARGETS: files.slice(0, 2).join(','), CONFORMANCE_SHARD: '2/2', ...RUN }),
    // "Re-run failed jobs": the second shard again, in the next attempt of the same CI run.
    runSuite({ CONFORMANCE_TARGETS: files.join(','), CONFORMANCE_SHARD: '2/2', GITHUB_RUN_ID: '7001', GITHUB_RUN_ATTEMPT: '2' }),
  ]);
  const first = await runSuite({ CONFORMANCE_TARGETS: files.join(','), CONFORMANCE_SHARD: '1/2', GITHUB_RUN_ID: '7001', GITHUB_RUN_ATTEMPT: '1' });
  for (const [shards, line] of [
    [
      [first, rerun],
      'admin-api-conformance: no verdict: the report folders are not of one run: shard 2/2 is of run "github 7001 attempt 2", shard 1/2 of run "github 7001 attempt 1": merge the shards of one run (a re-run of some shards is another run: re-run them all)',
    ],
    [
      [ofThree, rerun],
      'admin-api-conformance: no verdict: the report folders are not of one run: shard 2/2 is of run "github 7001 attempt 2", shard 1/2 of run "nightly 41": merge the shards of one run (a re-run of some shards is another run: re-run them all)',
    ],
    [
      [ofThree, ofTwo],
      'admin-api-conformance: no verdict: the report folders are not of one run: shard 2/2 and shard 1/2 name different targets for their run',
    ],
    [[ofThree, ofThree], 'admin-api-conformance: no verdict: the report folders are not of one run: two report folders are of shard 1/2'],
  ] as const) {
    const into = mkdtempSync(path.join(os.tmpdir(), 'conformance-shards-merge-'));
    try {
      const merged = await runCommand(['merge', gather(into, [...shards])]);
      expect(merged.exitCode, merged.stdout + merged.stderr).toBe(3);
      expect(merged.stderr.trim().split('\n')).toEqual([line]);
      // No earlier merge's verdict stands in the report folder: its report says why there is none.
      expect(merged.report).toMatchObject({ verdict: 'error', errors: [`the merge was refused: ${line.replace('admin-api-conformance: ', '')}`] });
    } finally {
      rmSync(into, { recursive: true, force: true });
    }
  }
});

// --shard=i/n on the command line is CONFORMANCE_SHARD=i/n (bin/admin-api-conformance.js), as shardOfRun(2) shows.
test('a shard is refused in one line, exit code 2, where it would judge no target, split a single target, or is no i/n', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ CONFORMANCE_TARGETS: files.join(','), CONFORMANCE_SHARD: '4/4' }, 'shard 4/4 holds no target: the run has 3; split it into at most 3 shards'],
    [{ CONFORMANCE_TARGETS: files.join(','), CONFORMANCE_SHARD: '3/2' }, 'CONFORMANCE_SHARD is "3/2"; give i/n, with i from 1 to n, such as 2/3'],
    [{ CONFORMANCE_SHARD: '1/2' }, 'CONFORMANCE_SHARD splits the targets of CONFORMANCE_TARGETS; a single target is judged whole, in one run: unset it'],
    [
      { CONFORMANCE_TARGETS: files.join(','), CONFORMANCE_SHARD: '1/2' },
      "CONFORMANCE_SHARD needs the run's identity, so that a merge can refuse shards of different runs: set CONFORMANCE_RUN_ID to one value in every shard of this run (GitHub Actions, GitLab CI and Buildkite give one of their own)",
    ],
    [
      { CONFORMANCE_TARGETS: files.join(','), CONFORMANCE_SHARD: '1/2', CONFORMANCE_RUN_ID: 'run\n2' },
      "CONFORMANCE_RUN_ID is not one line of 1 to 200 printable ASCII characters; give the pipeline's id, such as 4711",
    ],
  ];
  for (const [env, line] of cases) {
    const run = await runSuite(env);
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([`conformance: configuration error: ${line}`]);
    expect(readdirSync(run.reportDir)).not.toContain('targets');
  }
});

test("Playwright's own --shard, given to Playwright without the command, is refused in one line, exit code 2", () => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'conformance-playwright-shard-'));
  try {
    const started = Date.now();
    const run = spawnSync(
      process.execPath,
      [require.resolve('@playwright/test/cli'), 'test', '-c', path.join(PROJECT_ROOT, 'playwright.config.ts'), '--shard=1/2'],
      {
        cwd,
        env: commandEnv({ CONFORMANCE_EMBEDDED: 'true', CONFORMANCE_REPORT_DIR: path.join(cwd, 'report') }),
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    noteRun(started, run.status, run.stdout);
    expect(run.status, run.stdout + run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      "conformance: configuration error: Playwright's --shard splits a run's tests; the suite splits its targets: set CONFORMANCE_SHARD=i/n, or give --shard=i/n to admin-api-conformance",
    ]);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('a merge collects only reports their evidence bundles hold, and marks results older than --stale-after or of another version than --deployed', async () => {
  const shards = await Promise.all([shardOfRun(1), shardOfRun(2)]);
  const into = mkdtempSync(path.join(os.tmpdir(), 'conformance-shards-collect-'));
  try {
    const folder = gather(into, shards);
    const fresh = await runCommand(['merge', '--stale-after', '7d', folder]);
    expect(fresh.exitCode, fresh.stdout + fresh.stderr).toBe(1);
    expect(matrixOf(fresh)?.collectedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(matrixOf(fresh)?.targets.filter((t) => t.stale !== undefined)).toEqual([]);
    const badAge = await runCommand(['merge', '--stale-after=soon', folder]);
    expect([badAge.exitCode, badAge.stderr.trim()]).toEqual([
      2,
      'admin-api-conformance: merge: --stale-after takes minutes, hours or days, as 90m, 24h or 7d, not "soon"',
    ]);

    const deployed = path.join(into, 'deployed.yaml');
    writeFileSync(deployed, 'targets:\n  - { name: faithful, baseUrl: "https://x.invalid", product: { name: Unleash, version: "9.9.9" } }\n');
    const upgraded = await runCommand(['merge', '--deployed', deployed, folder]);
    expect(upgraded.exitCode, upgraded.stdout + upgraded.stderr).toBe(1);
    expect(matrixOf(upgraded)?.targets.map((t) => [t.name, t.stale])).toEqual([
      ['faithful', 'taken against no stated version; 9.9.9 is deployed now'],
      ['broken', undefined],
      ['spare', undefined],
    ]);
    const notFleet = await runCommand(['merge', '--deployed', files[0], folder]);
    expect([notFleet.exitCode, notFleet.stderr.trim()]).toEqual([2, `admin-api-conformance: ${files[0]} is not a fleet file: it has no targets list`]);

    // A report edited after its run (a FAIL made PASS) is not the one its bundle holds.
    const broken = path.join(folder, 'shard-2', 'targets', 'broken', 'conformance.json');
    writeFileSync(broken, readFileSync(broken, 'utf8').replace('"verdict": "fail"', '"verdict": "pass"'));
    const edited = await runCommand(['merge', folder]);
    expect([edited.exitCode, edited.stderr.trim()]).toEqual([
      3,
      'admin-api-conformance: the report of broken is not the one its evidence bundle holds: it was changed after its run',
    ]);
    rmSync(path.join(folder, 'shard-2', 'targets', 'broken', 'evidence.tar.gz'));
    const unbundled = await runCommand(['merge', folder]);
    expect(unbundled.exitCode).toBe(3);
    expect(unbundled.stderr).toContain('the report of broken has no evidence bundle beside it');
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
});
