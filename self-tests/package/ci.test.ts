import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { action, runner, runSteps } from '../support/ci-runner.ts';
import { usedActions, workflowJob } from '../support/ci-steps.ts';
import { startStandIn } from '../support/stand-in.ts';
import { keyForms } from '../support/key-forms.ts';
import { contentsUnder } from '../support/leaks.ts';
import { pack, run } from '../support/package.ts';
import { PROJECT_ROOT, referenceTargetEnv, runCommand } from '../support/run-suite.ts';
import { runConformance } from '../../run/index.ts';

// Two CI recipes run as their CI would run them, the suite's command a process of its own as in a job: the action
// (its steps from action.yml, the environment a runner gives, inputs and expressions filled in) gating a conformant
// deployment green (and, its command standing in, a faulty one red), and the GitHub shards recipe, whose jobs
// install the packed suite, judge a share of the targets each with `--shard`, and merge their report folders. What the action's other inputs and
// the other recipes do is shown with the command standing in, run in process (ci-recipes.test.ts).

test.describe.configure({ mode: 'default', timeout: 240_000 });

// A fault the admin token alone exposes, as the recipes configure nothing more.
const fault = FAULTS.find((f) => f.name === 'project-health-above-100')!;
let server: Awaited<ReturnType<typeof startReferenceServer>>;

test.beforeAll(async () => {
  server = await startReferenceServer(0, [fault]);
});

test.afterAll(async () => new Promise<void>((resolve) => (server ? server.server.close(() => resolve()) : resolve())));

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
let passing: ReturnType<typeof passingAction> | undefined;

/** The action given every token of the reference target and a signing key: one run, which two tests read. */
async function passingAction() {
  const env = referenceTargetEnv(server.url);
  const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'conformance-ci-runner-temp-'));
  const inputs = {
    'base-url': env.CONFORMANCE_BASE_URL,
    'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
    'forbidden-token': env.CONFORMANCE_FORBIDDEN_TOKEN,
    'signup-tokens': env.CONFORMANCE_SIGNUP_TOKENS,
    'signing-key': String(privateKey.export({ type: 'pkcs8', format: 'pem' })),
  };
  return { runnerTemp, ...(await action(inputs, { RUNNER_TEMP: runnerTemp })) };
}

test('the action gates a conformant deployment green, with its verdict, exit code and job summary', async () => {
  const { r, ran, out, gated } = await (passing ??= passingAction());
  expect(ran.exitCode, ran.log).toBe(0);
  expect(out).toEqual({ 'exit-code': '0', verdict: 'pass' });
  expect(gated.exitCode, gated.log).toBe(0);
  expect(gated.log.split('\n').slice(1)).toEqual(['Conformance: PASS (pass)', '']);
  expect(ran.log).not.toMatch(/^::error/m);
  expect(readFileSync(r.summary, 'utf8')).toContain('## Conformance: PASS');
  expect(existsSync(path.join(r.workspace, 'conformance-report', 'index.html'))).toBe(true);
});

test('the action signs the claim with its signing-key input, and leaves no form of the key in any file or output', async () => {
  const { r, ran, out, runnerTemp } = await (passing ??= passingAction());
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

// The action's scripts as a runner runs them, its command standing in (support/stand-in.ts): the run that carries a
// verdict through the real command is the one above.
test('the action fails the job on a violation, after the report is written, and the log says it is a violation, naming the clause', async () => {
  const env = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  const standIn = await startStandIn();
  const { r, ran, out, gated } = await action(
    {
      'base-url': env.CONFORMANCE_BASE_URL,
      'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
      'signup-tokens': env.CONFORMANCE_SIGNUP_TOKENS,
    },
    standIn.env,
    standIn.actionPath,
    false,
  ).finally(() => standIn.close());
  expect(out).toEqual({ 'exit-code': '1', verdict: 'fail' });
  expect(gated.exitCode).toBe(1);
  expect(gated.log).toContain('::error title=Conformance FAIL::');
  // The failed clause is an annotation of its own, which the runner reads from the run step's log.
  expect(ran.log.split('\n').filter((l) => l.startsWith('::error'))).toEqual([
    '::error title=Conformance%3A projects.project.health-range failed::the health of a project lies between 0 and 100: GET /api/admin/projects → 200: at /projects/0/health: received 100.5; the document requires a value of at most 100',
  ]);
  expect(existsSync(path.join(r.workspace, 'conformance-report', 'conformance.json'))).toBe(true);
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

/** The recipe's deployments: two faithful, one with a fault the admin token alone exposes; their target files hold no token. */
// In the order of the shell's glob over their files, as the recipe lists them.
const DEPLOYMENTS = ['apac', 'eu', 'us'];
const urlOf = (name: string) => (name === 'us' ? `${server.url}/variants/${fault.name}` : server.url);
const adminToken = () => referenceTargetEnv(server.url).CONFORMANCE_ADMIN_TOKEN;

/**
 * Runs the shards recipe, checking each shard on the way: three jobs each judge one of the three targets, and
 * the merge job's report equals that of one run of the three targets.
 */
async function runShardsRecipe(): Promise<{ matrix: MatrixReport; exitCode: number | null }> {
  const file = path.join(PROJECT_ROOT, 'docs', 'ci', 'github-shards.yml');
  expect(usedActions(file, 'shard')).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-artifact']);
  expect(usedActions(file, 'merge')).toEqual(['actions/setup-node', 'actions/download-artifact', 'actions/upload-artifact']);
  const token = adminToken();
  const values = { 'secrets.DEPLOYMENT_ADMIN_TOKENS': DEPLOYMENTS.map((name) => `${name}=${token}`).join('\n') };
  // The one stand-in: the package comes from this project's tarball, not the registry.
  const registry = { SUITE_PACKAGE: pack() };
  const shardJob = (shard: string) => workflowJob(file, 'shard', { ...values, 'matrix.shard': shard });
  const mergeJob = workflowJob(file, 'merge', values);
  // Every job installs the suite by the same step: it is run once, and each job's workspace finds what it installed.
  const [install] = shardJob('1').steps;
  expect(mergeJob.steps[0]).toEqual(install);
  const installed = runner();
  const installing = await runSteps(installed, [install], { ...mergeJob.env, ...registry }, false);
  expect(installing.exitCode, installing.log).toBe(0);
  const jobRunner = () => {
    const r = runner();
    symlinkSync(path.join(installed.workspace, 'node_modules'), path.join(r.workspace, 'node_modules'));
    return r;
  };
  const merged = jobRunner();
  const shardsDir = path.join(merged.workspace, 'shards');
  // The matrix's jobs run side by side, as in CI.
  await Promise.all(
    ['1', '2', '3'].map(async (shard) => {
      const r = jobRunner();
      // actions/checkout: the repository's target files.
      mkdirSync(path.join(r.workspace, 'conformance', 'targets'), { recursive: true });
      for (const name of DEPLOYMENTS)
        writeFileSync(path.join(r.workspace, 'conformance', 'targets', `${name}.yaml`), `name: ${name}\nbaseUrl: ${urlOf(name)}\n`);
      const runnerTemp = mkdtempSync(path.join(os.tmpdir(), 'conformance-ci-temp-'));
      const job = shardJob(shard);
      expect(job.steps[0]).toEqual(install);
      const ran = await runSteps(r, job.steps.slice(1), { ...job.env, ...registry, RUNNER_TEMP: runnerTemp });
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
    }),
  );
  const ran = await runSteps(merged, mergeJob.steps.slice(1), { ...mergeJob.env, ...registry });
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
  const files = DEPLOYMENTS.map((name) => {
    const f = path.join(dir, `${name}.yaml`);
    writeFileSync(f, `name: ${name}\nbaseUrl: ${urlOf(name)}\nadminToken: ${adminToken()}\n`);
    return f;
  });
  // The engine in this process: a run of the command is the engine's run (suite/*.test.ts show it).
  const one = await runConformance({ targets: files, claim: ['core', 'projects-data'], reportDir: path.join(dir, 'report'), cwd: dir, output: 'silent' });
  expect(one.exitCode).toBe(1);
  expect(verdictsOf(matrix)).toEqual(verdictsOf(one.matrix!));
});
