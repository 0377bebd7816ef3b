import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { test } from '@playwright/test';
import { startReferenceServer } from '../../reference-server/server.ts';
import { ALL_VARIANTS } from '../../reference-server/variants/index.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { referenceTargetEnv, runSuite, type SuiteRun } from '../support/run-suite.ts';

/** Each outcome and the clauses that had it: what a row of the matrix is compared with. */
export interface Outcomes {
  failed: string[];
  errored: string[];
  notExercised: string[];
}

export function outcomesOf(report: ConformanceReport, level?: 'MUST'): Outcomes {
  const clauses = report.clauses.filter((c) => level === undefined || c.level === level);
  const having = (status: string) => clauses.filter((c) => c.status === status).map((c) => c.id).sort();
  return { failed: having('failed'), errored: having('errored'), notExercised: having('not-exercised') };
}

/** The reasons of the clauses that did not pass, to show beside a row that differs from what was declared. */
export function unpassedReasons(run: SuiteRun): string {
  const lines = (run.report?.clauses ?? []).filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status}: ${(c.reason ?? '').split('\n')[0]}`);
  return [`exit code ${run.exitCode}, verdict ${run.report?.verdict}`, ...lines, run.report ? '' : run.stderr.slice(-2000)].join('\n');
}

// The run is CPU-bound on a small machine: a second suite worker only adds a process start, and the
// self-test runner already runs two suites side by side.
const SUITE_ARGS = ['--workers=1'];

/**
 * One reference server per self-test worker serves every variant under /variants/<name>; the suite runs
 * against it as a child process, one run at a time per worker, so the two workers run two suites at once.
 */
export function serveVariants(): (name: string) => Promise<SuiteRun> {
  let server: Server | undefined;
  let url = '';
  test.beforeAll(async () => {
    ({ server, url } = await startReferenceServer(0, ALL_VARIANTS));
  });
  test.afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });
  return async (name) => {
    const run = await runSuite(referenceTargetEnv(`${url}/variants/${name}`), SUITE_ARGS);
    rmSync(run.reportDir, { recursive: true, force: true });
    test.info().annotations.push({ type: 'suite run', description: `${run.durationMs} ms` });
    return run;
  };
}
