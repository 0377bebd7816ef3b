import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { actionSteps, usedActions, workflowJob, type ShellStep } from '../support/ci-steps.ts';
import { keyForms } from '../support/key-forms.ts';
import { contentsUnder } from '../support/leaks.ts';
import { pack, run } from '../support/package.ts';
import { PROJECT_ROOT, referenceTargetEnv, runCommand, runSuite } from '../support/run-suite.ts';

// The action's and the recipes' shell steps, run as their CI would run them: the environment a runner
// gives (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, the action's path), inputs and expressions filled in.
// The shards recipe is also the suite's proof of sharding: `--shard=i/n` runs split the targets, and
// merging their report folders gives the report of one whole run of the same targets.

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
      GITHUB_RUN_ID: '7001',
      GITHUB_RUN_ATTEMPT: '1',
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

async function action(inputs: Record<string, string>, env: Record<string, string> = {}) {
  const r = runner();
  // The run step's outputs are not known before it runs; the gate step, which reads them, is filled in after.
  const [install, runStep] = actionSteps(path.join(PROJECT_ROOT, 'action.yml'), inputs, { 'steps.run.outputs.exit-code': '', 'steps.run.outputs.verdict': '' });
  const ran = await runSteps(r, [install, runStep], { GITHUB_ACTION_PATH: PROJECT_ROOT, ...env });
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
  expect(ran.log).not.toMatch(/^::error/m);
  expect(readFileSync(r.summary, 'utf8')).toContain('## Conformance: PASS');
  expect(existsSync(path.join(r.workspace, 'conformance-report', 'index.html'))).toBe(true);
});

test('the action claims what its claim input names: given the admin token alone, a narrowed claim passes and a whole one gives no verdict', async () => {
  const env = referenceTargetEnv(server.url);
  const alone = { 'base-url': env.CONFORMANCE_BASE_URL, 'admin-token': env.CONFORMANCE_ADMIN_TOKEN };
  const narrowed = await action({ ...alone, claim: 'core,projects-data' });
  expect(narrowed.out).toEqual({ 'exit-code': '0', verdict: 'pass' });
  expect(readFileSync(narrowed.r.summary, 'utf8')).toContain('the target meets every MUST clause of the profiles claimed, core, projects-data');
  const whole = await action(alone);
  expect(whole.out).toEqual({ 'exit-code': '3', verdict: 'partial' });
  expect(whole.gated.exitCode).toBe(3);
});

test('the action holds a run to its baseline: under the regressions gate a failure the baseline had passes the job, the verdict still FAIL', async () => {
  const env = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  // Every input a whole claim needs: with its failure set aside, a run that exercised less has no verdict.
  const inputs = {
    'base-url': env.CONFORMANCE_BASE_URL,
    'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
    'forbidden-token': env.CONFORMANCE_FORBIDDEN_TOKEN,
    'signup-tokens': env.CONFORMANCE_SIGNUP_TOKENS,
  };
  const before = await action(inputs);
  expect(before.out).toEqual({ 'exit-code': '1', verdict: 'fail' });
  const baseline = path.join(before.r.workspace, 'conformance-report');
  const ratchet = await action({ ...inputs, baseline, gate: 'regressions' });
  expect(ratchet.out).toEqual({ 'exit-code': '0', verdict: 'fail' });
  expect(ratchet.gated.exitCode, ratchet.gated.log).toBe(0);
  expect(ratchet.gated.log).toMatch(/::warning/);
  // The regressions gate needs a baseline: without one nothing runs.
  const alone = await action({ ...inputs, gate: 'regressions' });
  expect(alone.out).toEqual({ 'exit-code': '2', verdict: 'error' });
});

test('the action fails the job on a violation, after the report is written, and the log says it is a violation, naming the clause', async () => {
  const env = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  const { r, ran, out, gated } = await action({
    'base-url': env.CONFORMANCE_BASE_URL,
    'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
    'signup-tokens': env.CONFORMANCE_SIGNUP_TOKENS,
  });
  expect(out).toEqual({ 'exit-code': '1', verdict: 'fail' });
  expect(gated.exitCode).toBe(1);
  expect(gated.log).toContain('::error title=Conformance FAIL::');
  // The failed clause is an annotation of its own, which the runner reads from the run step's log.
  expect(ran.log.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
    '::error title=Conformance%3A projects.project.health-range failed::the health of a project lies between 0 and 100: GET /api/admin/projects → 200: at /projects/0/health: received 100.5; the document requires a value of at most 100',
  ]);
  expect(existsSync(path.join(r.workspace, 'conformance-report', 'conformance.json'))).toBe(true);
});

test('the action signs the claim with its signing-key input, and leaves no form of the key in any file or output', async () => {
  const env = referenceTargetEnv(server.url);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'conformance-ci-runner-temp-'));
  const { r, ran, out } = await action(
    {
      'base-url': env.CONFORMANCE_BASE_URL,
      'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
      'forbidden-token': env.CONFORMANCE_FORBIDDEN_TOKEN,
      'signup-tokens': env.CONFORMANCE_SIGNUP_TOKENS,
      'signing-key': String(privateKey.export({ type: 'pkcs8', format: 'pem' })),
    },
    { RUNNER_TEMP: runnerTemp },
  );
  expect(out, ran.log).toEqual({ 'exit-code': '0', verdict: 'pass' });
  const bundle = path.join(r.workspace, 'conformance-report', 'evidence.tar.gz');
  const publicFile = path.join(runnerTemp, '..', `${path.basename(runnerTemp)}.pub.pem`);
  writeFileSync(publicFile, String(publicKey.export({ type: 'spki', format: 'pem' })));
  const verified = await runCommand(['verify', bundle, '--key', publicFile]);
  expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);
  expect(verified.stdout).toContain(`the attestation ${bundle}.intoto.jsonl is signed by the given key`);
  // The key's file is gone with the step, and no form of the key is in the workspace, the job's files or its log.
  expect(readdirSync(runnerTemp)).toEqual([]);
  const written = [r.workspace, path.dirname(r.output)].flatMap((dir) => contentsUnder(dir));
  for (const form of keyForms(privateKey)) {
    expect(Buffer.from(ran.log).includes(form), 'the log holds a form of the key').toBe(false);
    for (const [where, bytes] of written) expect(bytes.includes(form), `${where} holds a form of the key`).toBe(false);
  }
});

test('the action fails the job when a secret is missing, and says nothing was checked', async () => {
  const { out, gated } = await action({ 'base-url': server.url, 'admin-token': '' });
  expect(out['exit-code']).toBe('2');
  expect(gated.exitCode).toBe(2);
  expect(gated.log).toContain('::error title=Conformance not run::configuration error');
});

/** What a matrix says of its targets, without what changes from run to run (times, report paths). */
function verdictsOf(matrix: MatrixReport) {
  return {
    verdict: matrix.verdict,
    completed: matrix.completed,
    targets: matrix.targets.map((t) => [t.name, t.verdict, t.summary]),
    clauses: matrix.clauses.map((c) => [c.id, c.status, c.byTarget]),
  };
}

const readMatrix = (workspace: string): MatrixReport => JSON.parse(readFileSync(path.join(workspace, 'conformance-report', 'conformance.json'), 'utf8'));

// The recipes configure the admin token alone: with one failing clause and the clauses that need other
// tokens not exercised, a report has every kind of status a merge could lose.
const recipeTarget = () => {
  const target = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  return { CONFORMANCE_BASE_URL: target.CONFORMANCE_BASE_URL, CONFORMANCE_ADMIN_TOKEN: target.CONFORMANCE_ADMIN_TOKEN };
};

/** The recipe's deployments: two faithful, one with a fault the admin token alone exposes; their target files hold no token. */
// In the order of the shell's glob over their files, as the recipe lists them.
const DEPLOYMENTS = ['apac', 'eu', 'us'];
const urlOf = (name: string) => (name === 'us' ? `${server.url}/variants/${fault.name}` : server.url);

/**
 * Runs the shards recipe, checking each shard on the way: three jobs each judge one of the three targets, and
 * the merge job's report equals that of one run of the three targets.
 */
async function runShardsRecipe(): Promise<{ matrix: MatrixReport; exitCode: number | null }> {
  const file = path.join(PROJECT_ROOT, 'docs', 'ci', 'github-shards.yml');
  expect(usedActions(file, 'shard')).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-artifact']);
  expect(usedActions(file, 'merge')).toEqual(['actions/setup-node', 'actions/download-artifact', 'actions/upload-artifact']);
  const token = recipeTarget().CONFORMANCE_ADMIN_TOKEN;
  const values = { 'secrets.DEPLOYMENT_ADMIN_TOKENS': DEPLOYMENTS.map((name) => `${name}=${token}`).join('\n') };
  // The one stand-in: the package comes from this project's tarball, not the registry.
  const registry = { SUITE_PACKAGE: tarball };
  const merged = runner();
  const shardsDir = path.join(merged.workspace, 'shards');
  for (const shard of ['1', '2', '3']) {
    const r = runner();
    // actions/checkout: the repository's target files.
    mkdirSync(path.join(r.workspace, 'conformance', 'targets'), { recursive: true });
    for (const name of DEPLOYMENTS) writeFileSync(path.join(r.workspace, 'conformance', 'targets', `${name}.yaml`), `name: ${name}\nbaseUrl: ${urlOf(name)}\n`);
    const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'conformance-ci-temp-'));
    const job = workflowJob(file, 'shard', { ...values, 'matrix.shard': shard });
    const ran = await runSteps(r, job.steps, { ...job.env, ...registry, RUNNER_TEMP: runnerTemp });
    expect(ran.exitCode, ran.log).toBe(0);
    const matrix = readMatrix(r.workspace);
    expect(matrix.shard).toBe(`${shard}/3`);
    expect(matrix.runTargets).toEqual(DEPLOYMENTS);
    // Each shard judged its own target, whole.
    expect(matrix.targets.map((t) => t.name)).toEqual([DEPLOYMENTS[Number(shard) - 1]]);
    expect(matrix.targets[0].summary.notJudged).toBe(0);
    // One shard alone is never a pass of the run: a violation it finds fails it (1), else it has no verdict (3).
    expect(matrix.verdict).not.toBe('pass');
    expect(ran.log).toContain(`shard ${shard}/3 ended with exit code ${matrix.verdict === 'fail' ? 1 : 3}`);
    // No file of the workspace but the suite's own (whose embedded target knows this token) holds it: the target files with tokens went to the runner's temporary folder.
    expect((await run('grep', ['-rlF', '--exclude-dir=node_modules', token, '.'], r.workspace)).output).toBe('');
    // actions/download-artifact without merge-multiple: each artifact in a folder of its own.
    cpSync(path.join(r.workspace, 'conformance-report'), path.join(shardsDir, `conformance-report-${shard}`), { recursive: true });
  }
  const job = workflowJob(file, 'merge', values);
  const ran = await runSteps(merged, job.steps, { ...job.env, ...registry });
  expect(ran.exitCode, ran.log).toBe(1);
  return { matrix: readMatrix(merged.workspace), exitCode: ran.exitCode };
}

test('the shards recipe: three jobs each judge their share of the targets whole, merged into the report of one run, exit by the merged verdict', async () => {
  const { matrix } = await runShardsRecipe();
  expect(matrix.verdict).toBe('fail');
  expect(matrix.targets.map((t) => [t.name, t.verdict])).toEqual([
    ['apac', 'pass'],
    ['eu', 'pass'],
    ['us', 'fail'],
  ]);
  // One run of the same three targets says the same.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-one-run-'));
  const token = recipeTarget().CONFORMANCE_ADMIN_TOKEN;
  const files = DEPLOYMENTS.map((name) => {
    const f = path.join(dir, `${name}.yaml`);
    writeFileSync(f, `name: ${name}\nbaseUrl: ${urlOf(name)}\nadminToken: ${token}\n`);
    return f;
  });
  const one = await runSuite({ CONFORMANCE_TARGETS: files.join(','), CONFORMANCE_CLAIM: 'core,projects-data' });
  expect(one.exitCode).toBe(1);
  expect(verdictsOf(matrix)).toEqual(verdictsOf(one.report as unknown as MatrixReport));
});

test('the GitLab recipe: the job fails on a violation and leaves junit.xml and the report folder as its artifacts', async () => {
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
  const report: ConformanceReport = JSON.parse(readFileSync(path.join(r.workspace, 'conformance-report', 'conformance.json'), 'utf8'));
  expect(report.verdict).toBe('fail');
});

test("the GitLab parallel recipe: each job judges the share its CI_NODE_INDEX names, the gate merges them and fails on the run's violation", async () => {
  type Job = { variables: Record<string, string>; script: string[]; parallel?: number };
  const doc = parseYaml(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'gitlab-parallel.yml'), 'utf8')) as { conformance: Job; gate: Job };
  const token = recipeTarget().CONFORMANCE_ADMIN_TOKEN;
  // A GitLab runner sets none of the GitHub variables runSteps gives by default.
  const pipeline = { GITHUB_ACTIONS: '', GITHUB_RUN_ID: '', GITHUB_RUN_ATTEMPT: '', GITLAB_CI: 'true', CI_PIPELINE_ID: '4711', SUITE_PACKAGE: tarball };
  const gate = runner();
  const total = doc.conformance.parallel!;
  expect(total).toBe(DEPLOYMENTS.length);
  for (let index = 1; index <= total; index++) {
    const r = runner();
    mkdirSync(path.join(r.workspace, 'conformance', 'targets'), { recursive: true });
    for (const name of DEPLOYMENTS) writeFileSync(path.join(r.workspace, 'conformance', 'targets', `${name}.yaml`), `name: ${name}\nbaseUrl: ${urlOf(name)}\n`);
    const ran = await runSteps(r, [{ name: 'script', run: doc.conformance.script.join('\n'), env: {} }], {
      ...doc.conformance.variables,
      ...pipeline,
      CI_NODE_INDEX: String(index),
      CI_NODE_TOTAL: String(total),
      DEPLOYMENT_ADMIN_TOKENS: DEPLOYMENTS.map((name) => `${name}=${token}`).join('\n'),
    });
    expect(ran.exitCode, ran.log).toBe(0);
    const shard = path.join(r.workspace, `conformance-report-${index}`);
    const matrix: MatrixReport = JSON.parse(readFileSync(path.join(shard, 'conformance.json'), 'utf8'));
    expect([matrix.shard, matrix.run, matrix.targets.map((t) => t.name)]).toEqual([`${index}/${total}`, 'gitlab 4711', [DEPLOYMENTS[index - 1]]]);
    // GitLab hands the gate job every artifact of the stage before, in its workspace.
    cpSync(shard, path.join(gate.workspace, `conformance-report-${index}`), { recursive: true });
  }
  const merged = await runSteps(gate, [{ name: 'script', run: doc.gate.script.join('\n'), env: {} }], { ...doc.gate.variables, ...pipeline });
  expect(merged.exitCode, merged.log).toBe(1);
  const matrix = readMatrix(gate.workspace);
  expect([matrix.verdict, matrix.targets.map((t) => [t.name, t.verdict])]).toEqual([
    'fail',
    [
      ['apac', 'pass'],
      ['eu', 'pass'],
      ['us', 'fail'],
    ],
  ]);
});

test("the Kubernetes recipe: each pod of the Indexed Job judges the share its JOB_COMPLETION_INDEX names, the merge Job fails on the run's violation", async () => {
  type Container = { env: { name: string; value?: string }[]; command: string[] };
  type Job = { metadata: { name: string }; spec: { completions?: number; template: { spec: { containers: Container[] } } } };
  const jobs = parseAllDocuments(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'kubernetes-indexed-job.yaml'), 'utf8')).map((d) => d.toJS() as Job);
  const [shards, merge] = ['conformance-shards', 'conformance-merge'].map((name) => jobs.find((j) => j.metadata.name === name)!);
  // The container as Kubernetes starts it: its env (a value from the downward API filled in as the Job would)
  // and its `sh -c` script; the Secret and the volume are folders of this machine.
  const token = recipeTarget().CONFORMANCE_ADMIN_TOKEN;
  const [targets, reports] = [mkdtempSync(path.join(os.tmpdir(), 'conformance-k8s-targets-')), mkdtempSync(path.join(os.tmpdir(), 'conformance-k8s-reports-'))];
  for (const name of DEPLOYMENTS) writeFileSync(path.join(targets, `${name}.yaml`), `name: ${name}\nbaseUrl: ${urlOf(name)}\nadminToken: ${token}\n`);
  const pod = (job: Job, extra: Record<string, string>) => {
    const [container] = job.spec.template.spec.containers;
    // The one value from the downward API is the Job's uid, the run's identity.
    const env = Object.fromEntries(container.env.map((e) => [e.name, e.value ?? 'job-uid-0c1d']));
    const script = container.command.at(-1)!.replaceAll('"$SUITE_PACKAGE"', `"${tarball}"`);
    // No GitHub variable in a pod: runSteps gives them by default.
    const notGitHub = { GITHUB_ACTIONS: '', GITHUB_RUN_ID: '', GITHUB_RUN_ATTEMPT: '' };
    return runSteps(runner(), [{ name: job.metadata.name, run: script, env: {} }], {
      ...notGitHub,
      ...env,
      TARGETS_DIR: targets,
      REPORTS_DIR: reports,
      ...extra,
    });
  };
  expect(shards.spec.completions).toBe(DEPLOYMENTS.length);
  for (let index = 0; index < DEPLOYMENTS.length; index++) {
    const ran = await pod(shards, { JOB_COMPLETION_INDEX: String(index) });
    expect(ran.exitCode, ran.log).toBe(0);
    const matrix: MatrixReport = JSON.parse(readFileSync(path.join(reports, 'shards', String(index), 'conformance.json'), 'utf8'));
    expect([matrix.shard, matrix.run, matrix.targets.map((t) => t.name)]).toEqual([`${index + 1}/3`, 'job-uid-0c1d', [DEPLOYMENTS[index]]]);
  }
  const merged = await pod(merge, {});
  expect(merged.exitCode, merged.log).toBe(1);
  const matrix: MatrixReport = JSON.parse(readFileSync(path.join(reports, 'merged', 'conformance.json'), 'utf8'));
  expect([matrix.verdict, matrix.targets.map((t) => [t.name, t.verdict])]).toEqual([
    'fail',
    [
      ['apac', 'pass'],
      ['eu', 'pass'],
      ['us', 'fail'],
    ],
  ]);
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
