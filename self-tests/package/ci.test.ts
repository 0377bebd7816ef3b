import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { actionSteps, usedActions, workflowJob, type ShellStep } from '../support/ci-steps.ts';
import { pack, run } from '../support/package.ts';
import { PROJECT_ROOT, referenceTargetEnv } from '../support/run-suite.ts';

// The action's and the recipes' shell steps, run as their CI would run them: the environment a runner
// gives (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, the action's path), inputs and expressions filled in.

test.describe.configure({ mode: 'serial', timeout: 240_000 });

// A fault the admin token alone exposes, as the recipes configure nothing more.
const fault = FAULTS.find((f) => f.name === 'project-health-above-100')!;
let server: Awaited<ReturnType<typeof startReferenceServer>>;
let tarball: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startReferenceServer(0, [fault]);
  tarball = pack();
});

test.afterAll(async () => new Promise<void>((resolve) => (server ? server.server.close(() => resolve()) : resolve())));

interface Runner {
  workspace: string;
  output: string;
  summary: string;
}

function runner(): Runner {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'conformance-ci-'));
  const files = mkdtempSync(path.join(os.tmpdir(), 'conformance-ci-files-'));
  const [output, summary] = [path.join(files, 'output'), path.join(files, 'summary')];
  writeFileSync(output, '');
  writeFileSync(summary, '');
  return { workspace, output, summary };
}

/** Runs shell steps in order as a runner would, stopping at the first that fails; the last exit code. */
async function runSteps(r: Runner, steps: ShellStep[], env: Record<string, string>): Promise<{ exitCode: number | null; log: string }> {
  let log = '';
  for (const step of steps) {
    const result = await run('bash', ['-e', '-c', step.run], r.workspace, {
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: r.workspace,
      GITHUB_OUTPUT: r.output,
      GITHUB_STEP_SUMMARY: r.summary,
      ...env,
      ...step.env,
    });
    log += `--- ${step.name}\n${result.output}`;
    if (result.exitCode !== 0) return { exitCode: result.exitCode, log };
  }
  return { exitCode: 0, log };
}

const outputs = (r: Runner) =>
  Object.fromEntries(
    readFileSync(r.output, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('=')),
  );

async function action(inputs: Record<string, string>) {
  const r = runner();
  // The run step's outputs are not known before it runs; the gate step, which reads them, is filled in after.
  const [install, runStep] = actionSteps(path.join(PROJECT_ROOT, 'action.yml'), inputs, { 'steps.run.outputs.exit-code': '', 'steps.run.outputs.verdict': '' });
  const ran = await runSteps(r, [install, runStep], { GITHUB_ACTION_PATH: PROJECT_ROOT });
  const out = outputs(r);
  // The gate step reads the run step's outputs, as `${{ steps.run.outputs.… }}` gives them.
  const gate = actionSteps(path.join(PROJECT_ROOT, 'action.yml'), inputs, {
    'steps.run.outputs.exit-code': out['exit-code'],
    'steps.run.outputs.verdict': out.verdict,
  }).at(-1)!;
  const gated = await runSteps(r, [gate], { GITHUB_ACTION_PATH: PROJECT_ROOT });
  return { r, ran, out, gated };
}

test('the action gates a conformant deployment green, with its verdict, exit code and job summary', async () => {
  const env = referenceTargetEnv(server.url);
  const { r, ran, out, gated } = await action({
    'base-url': env.CONFORMANCE_BASE_URL,
    'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
    'forbidden-token': env.CONFORMANCE_FORBIDDEN_TOKEN,
    'signup-tokens': env.CONFORMANCE_SIGNUP_TOKENS,
  });
  expect(ran.exitCode, ran.log).toBe(0);
  expect(out).toEqual({ 'exit-code': '0', verdict: 'pass' });
  expect(gated.exitCode, gated.log).toBe(0);
  expect(readFileSync(r.summary, 'utf8')).toContain('## Conformance: PASS');
  expect(existsSync(path.join(r.workspace, 'conformance-report', 'index.html'))).toBe(true);
});

test('the action fails the job on a violation, after the report is written, and the log says it is a violation', async () => {
  const env = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  const { r, out, gated } = await action({
    'base-url': env.CONFORMANCE_BASE_URL,
    'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
    'signup-tokens': env.CONFORMANCE_SIGNUP_TOKENS,
  });
  expect(out).toEqual({ 'exit-code': '1', verdict: 'fail' });
  expect(gated.exitCode).toBe(1);
  expect(gated.log).toContain('::error title=Conformance FAIL::');
  expect(existsSync(path.join(r.workspace, 'conformance-report', 'conformance.json'))).toBe(true);
});

test('the action fails the job when a secret is missing, and says nothing was checked', async () => {
  const { out, gated } = await action({ 'base-url': server.url, 'admin-token': '' });
  expect(out['exit-code']).toBe('2');
  expect(gated.exitCode).toBe(2);
  expect(gated.log).toContain('::error title=Conformance not run::configuration error');
});

test('the shards recipe: three shards of the npm package, merged, exit by the merged verdict', async () => {
  const file = path.join(PROJECT_ROOT, 'docs', 'ci', 'github-shards.yml');
  expect(usedActions(file, 'shard')).toEqual(['actions/setup-node', 'actions/upload-artifact']);
  expect(usedActions(file, 'merge')).toEqual(['actions/setup-node', 'actions/download-artifact', 'actions/upload-artifact']);
  const target = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  const values = { 'vars.CONFORMANCE_BASE_URL': target.CONFORMANCE_BASE_URL, 'secrets.CONFORMANCE_ADMIN_TOKEN': target.CONFORMANCE_ADMIN_TOKEN };
  // The one stand-in: the package comes from this project's tarball, not the registry.
  const registry = { SUITE_PACKAGE: tarball };
  const merged = runner();
  const blobs = path.join(merged.workspace, 'all-blob-reports');
  mkdirSync(blobs);
  // Every job of a workflow runs in the same workspace path, so the shards' blob reports agree on where the tests live.
  const r = runner();
  for (const shard of ['1', '2', '3']) {
    const job = workflowJob(file, 'shard', { ...values, 'matrix.shard': shard });
    const ran = await runSteps(r, job.steps, { ...job.env, ...registry });
    expect(ran.exitCode, ran.log).toBe(0);
    // actions/upload-artifact and download-artifact with merge-multiple: every shard's blob report in one folder.
    const blobDir = path.join(r.workspace, 'conformance-report', 'blob-report');
    for (const f of readdirSync(blobDir)) cpSync(path.join(blobDir, f), path.join(blobs, f));
  }
  expect(readdirSync(blobs)).toHaveLength(3);
  const job = workflowJob(file, 'merge', values);
  const ran = await runSteps(merged, job.steps, { ...job.env, ...registry });
  expect(ran.exitCode, ran.log).toBe(1);
  const report = JSON.parse(readFileSync(path.join(merged.workspace, 'conformance-report', 'conformance.json'), 'utf8'));
  expect(report.verdict).toBe('fail');
  expect(report.summary.notJudged).toBe(0);
});

test('the GitLab recipe: the job fails on a violation and leaves junit.xml and the report folder as its artifacts', async () => {
  const doc = parseYaml(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'gitlab-ci.yml'), 'utf8')) as {
    conformance: { variables: Record<string, string>; script: string[]; artifacts: { paths: string[]; reports: { junit: string } } };
  };
  const { variables, script, artifacts } = doc.conformance;
  const r = runner();
  const target = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  // GitLab runs the script lines in one shell and fails the job at the first that fails.
  const ran = await runSteps(r, [{ name: 'script', run: script.join('\n'), env: {} }], { ...variables, SUITE_PACKAGE: tarball, GITLAB_CI: 'true', ...target });
  expect(ran.exitCode, ran.log).toBe(1);
  expect(existsSync(path.join(r.workspace, artifacts.reports.junit))).toBe(true);
  for (const p of artifacts.paths) expect(existsSync(path.join(r.workspace, p))).toBe(true);
});

test("the GitHub Actions recipe uses this repository's action with the inputs it declares", () => {
  const doc = parseYaml(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'github-action.yml'), 'utf8')) as {
    jobs: { conformance: { steps: { uses?: string; with?: Record<string, string> }[] } };
  };
  const declared = Object.keys((parseYaml(readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs);
  const step = doc.jobs.conformance.steps.find((s) => s.uses?.includes('admin-api-conformance'))!;
  expect(Object.keys(step.with ?? {}).filter((k) => !declared.includes(k))).toEqual([]);
  expect(Object.keys(step.with ?? {})).toEqual(expect.arrayContaining(['base-url', 'admin-token']));
});
