import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { PROJECT_ROOT, referenceTargetEnv, runSuite, type SuiteRun } from '../support/run-suite.ts';

// Issue 7, item 4: `--shard=i/n` runs on several machines split the clauses, and `playwright merge-reports`
// of their blob reports gives the conformance report of one whole run.

/** The fault that keeps an expired token enabled, from the catalogue of broken servers. */
const expiredStillEnabled = FAULTS.find((f) => f.name === 'expired-token-enabled')!;

const COMMAND = path.join(PROJECT_ROOT, 'bin', 'admin-api-conformance.js');
const SHARDS = 2;

test.describe.configure({ mode: 'default' });

let server: Awaited<ReturnType<typeof startReferenceServer>>;
let single: SuiteRun;
let shards: SuiteRun[];

// One failing clause and, with no forbidden token, some not exercised: the report has every kind of status to lose.
const targetEnv = () => {
  const env = referenceTargetEnv(`${server.url}/variants/${expiredStillEnabled.name}`);
  delete env.CONFORMANCE_FORBIDDEN_TOKEN;
  return env;
};

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startReferenceServer(0, [expiredStillEnabled]);
  [single, ...shards] = await Promise.all([
    runSuite(targetEnv()),
    ...Array.from({ length: SHARDS }, (_, i) => runSuite(targetEnv(), [`--shard=${i + 1}/${SHARDS}`])),
  ]);
});

test.afterAll(async () => {
  if (server) await new Promise<void>((resolve) => server.server.close(() => resolve()));
});

/** Clauses a run judged: the judge attaches evidence to every clause it looks at, passed or not. */
const judged = (report: ConformanceReport | undefined) => (report?.clauses ?? []).filter((c) => c.evidence !== undefined).map((c) => c.id);

/** What a report says about the target, without what changes from run to run (times, request ids, bodies). */
function verdictOf(report: ConformanceReport | undefined) {
  if (!report) return undefined;
  return {
    target: report.target,
    verdict: report.verdict,
    completed: report.completed,
    errors: report.errors,
    shard: report.shard,
    summary: report.summary,
    requests: report.requests,
    clauses: report.clauses.map((c) => ({
      id: c.id,
      section: c.section,
      level: c.level,
      status: c.status,
      instances: c.evidence?.instances,
      violations: (c.evidence?.violations.length ?? 0) + (c.evidence?.violationsCut ?? 0),
    })),
  };
}

/** Collects every shard's blob report in one folder, as CI would download them side by side. */
function collectBlobs(runs: SuiteRun[]): { dir: string; files: string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-blobs-'));
  const files: string[] = [];
  runs.forEach((run, i) => {
    const blobDir = path.join(run.reportDir, 'blob-report');
    for (const file of existsSync(blobDir) ? readdirSync(blobDir).filter((f) => f.endsWith('.zip')) : []) {
      const name = `shard-${i + 1}-${file}`;
      copyFileSync(path.join(blobDir, file), path.join(dir, name));
      files.push(name);
    }
  });
  return { dir, files };
}

/**
 * `admin-api-conformance merge <dir>`, as the README gives it, in a CI job of its own: no target
 * configuration, CI=true, a folder of its own.
 */
async function mergeReports(blobDir: string): Promise<{ output: string; exitCode: number | null; report?: ConformanceReport }> {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-merged-'));
  const childEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    FORCE_COLOR: '0',
    CI: 'true',
    CONFORMANCE_REPORT_DIR: reportDir,
  };
  const child = spawn(process.execPath, [COMMAND, 'merge', blobDir], { cwd: reportDir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  const file = path.join(reportDir, 'conformance.json');
  return { output, exitCode, report: existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined };
}

test('--shard=1/2 and --shard=2/2 each judge part of the clauses, and together every clause exactly once', () => {
  const all = single.report?.clauses.map((c) => c.id) ?? [];
  expect(all.length, single.stdout + single.stderr).toBeGreaterThan(0);
  const parts = shards.map((run) => judged(run.report));
  parts.forEach((part, i) => expect(part.length, `shard ${i + 1}/${SHARDS} judged no clause:\n${shards[i].stdout}${shards[i].stderr}`).toBeGreaterThan(0));
  parts.forEach((part, i) => expect(part.length, `shard ${i + 1}/${SHARDS} judged every clause`).toBeLessThan(all.length));
  expect([...parts.flat()].sort()).toEqual([...all].sort());
  shards.forEach((run, i) => expect(run.report?.shard).toBe(`${i + 1}/${SHARDS}`));
  // One shard alone is never a verdict on the target, unless what it judged already fails.
  for (const run of shards) expect([run.report?.verdict, run.exitCode]).toEqual(run.report?.summary.must.failed ? ['fail', 1] : ['partial', 3]);
});

test("merge-reports of the shards' blob reports gives the same conformance report as a single run", async () => {
  const blobs = collectBlobs(shards);
  expect(blobs.files, `blob reports in ${shards.map((r) => path.join(r.reportDir, 'blob-report')).join(', ')}`).toHaveLength(SHARDS);
  const merged = await mergeReports(blobs.dir);
  expect(merged.report, merged.output).toBeDefined();
  expect(single.report?.verdict).toBe('fail');
  expect(verdictOf(merged.report)).toEqual(verdictOf(single.report));
  // The merge exits by the merged verdict, as the single run does.
  expect(merged.exitCode, merged.output).toBe(single.exitCode);
});
