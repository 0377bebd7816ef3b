import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { actionSteps, usedActions, workflowJob, type ShellStep } from '../support/ci-steps.ts';
import { pack, run } from '../support/package.ts';
import { PROJECT_ROOT, referenceTargetEnv } from '../support/run-suite.ts';

// The action's and the recipes' shell steps, run as their CI would run them: the environment a runner
// gives (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, the action's path), inputs and expressions filled in.
// The shards recipe is also the suite's proof of sharding: `--shard=i/n` runs split the clauses, and
// merging their blob reports gives the report of one whole run (the GitLab recipe's, of the same target).

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

/** Clauses a run judged: the judge attaches evidence to every clause it looks at, passed or not. */
const judged = (report: ConformanceReport) => report.clauses.filter((c) => c.evidence !== undefined).map((c) => c.id);

/** What a report says about the target, without what changes from run to run (times, request ids, bodies). */
function verdictOf(report: ConformanceReport) {
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

const readReport = (workspace: string): ConformanceReport => JSON.parse(readFileSync(path.join(workspace, 'conformance-report', 'conformance.json'), 'utf8'));

// The recipes configure the admin token alone: with one failing clause and the clauses that need other
// tokens not exercised, a report has every kind of status a merge could lose.
const recipeTarget = () => {
  const target = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  return { CONFORMANCE_BASE_URL: target.CONFORMANCE_BASE_URL, CONFORMANCE_ADMIN_TOKEN: target.CONFORMANCE_ADMIN_TOKEN };
};

/**
 * Runs the shards recipe, checking each shard on the way; its merged report and exit code. The GitLab
 * recipe's single run must match them, so either test may be the first to ask, and the recipe runs once.
 */
async function runShardsRecipe(): Promise<{ report: ConformanceReport; exitCode: number | null }> {
  const file = path.join(PROJECT_ROOT, 'docs', 'ci', 'github-shards.yml');
  expect(usedActions(file, 'shard')).toEqual(['actions/setup-node', 'actions/upload-artifact']);
  expect(usedActions(file, 'merge')).toEqual(['actions/setup-node', 'actions/download-artifact', 'actions/upload-artifact']);
  const target = recipeTarget();
  const values = { 'vars.CONFORMANCE_BASE_URL': target.CONFORMANCE_BASE_URL, 'secrets.CONFORMANCE_ADMIN_TOKEN': target.CONFORMANCE_ADMIN_TOKEN };
  // The one stand-in: the package comes from this project's tarball, not the registry.
  const registry = { SUITE_PACKAGE: tarball };
  const merged = runner();
  const blobs = path.join(merged.workspace, 'all-blob-reports');
  mkdirSync(blobs);
  // Every job of a workflow runs in the same workspace path, so the shards' blob reports agree on where the tests live.
  const r = runner();
  const shards: ConformanceReport[] = [];
  for (const shard of ['1', '2', '3']) {
    const job = workflowJob(file, 'shard', { ...values, 'matrix.shard': shard });
    const ran = await runSteps(r, job.steps, { ...job.env, ...registry });
    expect(ran.exitCode, ran.log).toBe(0);
    const report = readReport(r.workspace);
    shards.push(report);
    expect(report.shard).toBe(`${shard}/3`);
    // One shard alone is never a pass of the target: a violation it finds fails it (1), else it has no verdict (3).
    expect(report.verdict).not.toBe('pass');
    expect(ran.log).toContain(`shard ${shard}/3 ended with exit code ${report.summary.must.failed ? 1 : 3}`);
    // actions/upload-artifact and download-artifact with merge-multiple: every shard's blob report in one folder.
    const blobDir = path.join(r.workspace, 'conformance-report', 'blob-report');
    for (const f of readdirSync(blobDir)) cpSync(path.join(blobDir, f), path.join(blobs, f));
  }
  expect(readdirSync(blobs)).toHaveLength(3);
  // Each shard judged part of the clauses, and together every clause exactly once.
  const all = shards[0].clauses.map((c) => c.id);
  const parts = shards.map(judged);
  for (const part of parts) expect(part.length).toBeGreaterThan(0);
  for (const part of parts) expect(part.length).toBeLessThan(all.length);
  expect(parts.flat().sort()).toEqual([...all].sort());
  const job = workflowJob(file, 'merge', values);
  const ran = await runSteps(merged, job.steps, { ...job.env, ...registry });
  expect(ran.exitCode, ran.log).toBe(1);
  return { report: readReport(merged.workspace), exitCode: ran.exitCode };
}

let shardsRun: ReturnType<typeof runShardsRecipe> | undefined;
const shardsRecipe = () => (shardsRun ??= runShardsRecipe());

test('the shards recipe: three shards of the npm package each judge part of the clauses, merged into one report, exit by the merged verdict', async () => {
  const { report } = await shardsRecipe();
  expect(report.verdict).toBe('fail');
  expect(report.summary.notJudged).toBe(0);
});

test("the GitLab recipe: the job fails on a violation and leaves junit.xml and the report folder as its artifacts; its report is the shards' merged one", async () => {
  const doc = parseYaml(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'gitlab-ci.yml'), 'utf8')) as {
    conformance: { variables: Record<string, string>; script: string[]; artifacts: { paths: string[]; reports: { junit: string } } };
  };
  const { variables, script, artifacts } = doc.conformance;
  const r = runner();
  // GitLab runs the script lines in one shell and fails the job at the first that fails.
  const ran = await runSteps(r, [{ name: 'script', run: script.join('\n'), env: {} }], {
    ...variables,
    SUITE_PACKAGE: tarball,
    GITLAB_CI: 'true',
    ...recipeTarget(),
  });
  expect(ran.exitCode, ran.log).toBe(1);
  expect(existsSync(path.join(r.workspace, artifacts.reports.junit))).toBe(true);
  for (const p of artifacts.paths) expect(existsSync(path.join(r.workspace, p))).toBe(true);
  // One whole run and the merge of three shards of the same target say the same, and exit alike.
  const merged = await shardsRecipe();
  expect(verdictOf(merged.report)).toEqual(verdictOf(readReport(r.workspace)));
  expect(merged.exitCode).toBe(ran.exitCode);
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
