import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { versionedReference, withServer } from '../support/hostile-servers.ts';
import { referenceTargetEnv, runCommand, runSuite } from '../support/run-suite.ts';

// Issue 41, point 1: the product's version read from the target (opt-in) or stated, bound to the claim; and
// point 2: a deviation that names versions applies to those alone.

test("read from the target, the version is the product's, marked read, and the pass names it in every report", async () => {
  await withServer(versionedReference(), async (server) => {
    const run = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_READ_PRODUCT_VERSION: 'unleash' }));
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.report?.product).toEqual({
      name: 'Unleash',
      version: '8.2.0',
      versionFrom: 'read',
      read: { request: 'GET /api/admin/ui-config', outsideDocument: true, status: 200, version: '8.2.0' },
    });
    const holds = 'meets every MUST clause, for Unleash 8.2.0 (version read from the target)';
    expect(run.stdout).toContain(holds);
    expect(run.stdout).toContain('GET /api/admin/ui-config, a request outside the document, recorded as a fact and never judged');
    for (const file of ['summary.md', 'index.html']) expect(readFileSync(path.join(run.reportDir, file), 'utf8')).toContain(holds);
  });
});

test('a stated version is marked stated; one read in its place keeps the stated one beside it', async () => {
  await withServer(versionedReference(), async (server) => {
    const stated = { CONFORMANCE_PRODUCT_NAME: 'Unleash', CONFORMANCE_PRODUCT_VERSION: '8.1.0' };
    const alone = await runSuite(referenceTargetEnv(server.url, stated));
    expect(alone.report?.product).toEqual({ name: 'Unleash', version: '8.1.0', versionFrom: 'stated' });
    expect(alone.stdout).toContain('for Unleash 8.1.0 (version as stated)');
    const both = await runSuite(referenceTargetEnv(server.url, { ...stated, CONFORMANCE_READ_PRODUCT_VERSION: 'unleash' }));
    expect(both.report?.product).toMatchObject({ version: '8.2.0', versionFrom: 'read', read: { version: '8.2.0', stated: '8.1.0' } });
    expect(both.stdout).toContain('the settings state 8.1.0');
  });
});

test("verify prints the version a bundle holds for, and diff says when two runs' versions differ", async () => {
  await withServer(versionedReference(), async (server) => {
    const stated = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_PRODUCT_NAME: 'Unleash', CONFORMANCE_PRODUCT_VERSION: '8.1.0' }));
    const read = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_READ_PRODUCT_VERSION: 'unleash' }));
    const verified = await runCommand(['verify', path.join(read.reportDir, 'evidence.tar.gz')]);
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toContain('  product: Unleash 8.2.0 (version read from the target: GET /api/admin/ui-config, a request outside the document');
    const diff = await runCommand(['diff', stated.reportDir, read.reportDir]);
    expect(diff.stdout).toContain("the product's version: 8.1.0 then 8.2.0; a change may be the new version's");
    const same = await runCommand(['diff', read.reportDir, read.reportDir]);
    expect(same.stdout).not.toContain("the product's version");
    const json = await runCommand(['diff', stated.reportDir, read.reportDir, '--format', 'json']);
    expect(JSON.parse(json.stdout).productVersions).toEqual([{ target: expect.any(String), old: '8.1.0', new: '8.2.0' }]);
  });
});

test('a version that cannot be read is said, and why; it is never a verdict, and nothing it holds is quoted', async () => {
  const cases: [{ status?: number; body?: unknown }, string][] = [
    [{ status: 404 }, 'answered 404, not 200'],
    [{ body: ['8.2.0'] }, 'the answer has no "version" text'],
    [{ body: { version: 820 } }, 'the answer has no "version" text'],
    [{ body: { version: `8.2.0 ${REFERENCE_FIXTURES.adminToken}` } }, '"version" is not a version (such as 8.2.0)'],
  ];
  for (const [answer, problem] of cases) {
    await withServer(versionedReference(answer), async (server) => {
      const run = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_READ_PRODUCT_VERSION: 'unleash' }));
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(run.report?.product).toEqual({ name: 'Unleash', read: expect.objectContaining({ problem, outsideDocument: true }) });
      expect(run.stdout).toContain(`its version could not be read from the target: GET /api/admin/ui-config`);
      expect(run.stdout).not.toContain(', for Unleash');
      expect(run.stdout + readFileSync(path.join(run.reportDir, 'conformance.json'), 'utf8')).not.toContain(REFERENCE_FIXTURES.adminToken);
    });
  }
});

test('an unknown reader is refused before any request, and a value like a secret is not quoted', async () => {
  for (const [value, shown] of [
    ['gitlab', '"gitlab"'],
    ['s3cr3t token!', 'a value (not shown, as it may be a secret)'],
  ]) {
    const run = await runSuite(referenceTargetEnv('http://127.0.0.1:9', { CONFORMANCE_READ_PRODUCT_VERSION: value }));
    expect(run.exitCode).toBe(2);
    expect(run.stderr + run.stdout).toContain(`CONFORMANCE_READ_PRODUCT_VERSION is ${shown}; give one of unleash`);
  }
});

/** A deviation of a clause the reference meets: applied, it is "no longer needed"; set aside, the clause carries none. */
function deviationsFile(dir: string, versions: string): string {
  const file = path.join(dir, 'deviations.yaml');
  writeFileSync(file, `deviations:\n  - clause: projects.list.required\n    reason: a test's\n    versions: "${versions}"\n`);
  return file;
}

test('a deviation naming versions applies to those alone, by the version read or stated; with none known, it excuses nothing', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-versions-'));
  try {
    await withServer(versionedReference(), async (server) => {
      const deviationOf = async (versions: string, env: Record<string, string>) => {
        const run = await runSuite(referenceTargetEnv(server.url, { CONFORMANCE_DEVIATIONS: deviationsFile(dir, versions), ...env }));
        const clause = run.report?.clauses.find((c) => c.id === 'projects.list.required');
        return { state: clause?.deviation?.state, setAside: run.report?.deviationsSetAside, stdout: run.stdout };
      };
      const read = { CONFORMANCE_READ_PRODUCT_VERSION: 'unleash' };
      expect(await deviationOf('>=7.4.1 <8.3.0', read)).toMatchObject({ state: 'no-longer-needed', setAside: undefined });
      const outside = await deviationOf('>=6.10.1 <8.2.0', read);
      expect(outside).toMatchObject({ state: undefined, setAside: [{ clause: 'projects.list.required', versions: '>=6.10.1 <8.2.0' }] });
      expect(outside.stdout).toContain(
        "deviation set aside  projects.list.required: it names versions >=6.10.1 <8.2.0, and the product's version 8.2.0 is not in them",
      );
      const stated = { CONFORMANCE_PRODUCT_NAME: 'Unleash', CONFORMANCE_PRODUCT_VERSION: '8.1.0' };
      expect(await deviationOf('>=6.10.1 <8.2.0', stated)).toMatchObject({ state: 'no-longer-needed' });
      const unknown = await deviationOf('>=6.10.1 <8.2.0', {});
      expect(unknown).toMatchObject({ state: undefined, setAside: [{ clause: 'projects.list.required' }] });
      expect(unknown.stdout).toContain("the product's version is not known");
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
