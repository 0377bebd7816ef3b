import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startReferenceServer } from '../../reference-server/server.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { judgedVariant } from '../matrix/judged.ts';
import { referenceTargetEnv, runSuite, statusesOf } from '../support/run-suite.ts';

// The matrix judges every fault in process; this run proves that HTTP, Playwright and the reporter carry
// the same verdicts for one of them, clause by clause, and that the exit code follows, whatever reporters
// the user puts in place of the configured ones (the command keeps its own beside them).

const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;

test('a fault run as a black box, with the reporter given on the command line, fails exactly the clauses the judge fails in process, exit code 1', async () => {
  const { server, url } = await startReferenceServer(0, [fault]);
  try {
    const run = await runSuite(referenceTargetEnv(`${url}/variants/${fault.name}`, { CONFORMANCE_OPENAPI_PATH: '/docs/openapi.json' }), [
      '--reporter=dot,blob',
    ]);
    // An INFO clause the judge passes is reported observed, never passed.
    const info = new Set(
      loadCatalogue()
        .filter((c) => c.level === 'INFO')
        .map((c) => c.id),
    );
    const judged = judgedVariant(fault);
    const expected = Object.fromEntries([
      ...judged.all.passed.map((id) => [id, info.has(id) ? 'observed' : 'passed']),
      ...judged.all.failed.map((id) => [id, 'failed']),
      ...judged.all.errored.map((id) => [id, 'errored']),
      ...judged.all.notExercised.map((id) => [id, 'not-exercised']),
    ]);
    expect(statusesOf(run.report), run.stdout + run.stderr).toEqual(expected);
    expect(judged.must.failed).toEqual(fault.breaks);
    expect(run.report?.verdict).toBe('fail');
    expect(run.exitCode).toBe(1);
    // The user's reporter ran in place of the list reporter, and the command's own wrote the report.
    expect(run.stdout).not.toContain('✘');
    expect(run.stdout).toMatch(/^[·°×F]+$/m);
    // The blob report the user asked for went to the report folder, not beside the suite's configuration.
    expect(existsSync(path.join(run.reportDir, 'blob-report', 'report.zip'))).toBe(true);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
