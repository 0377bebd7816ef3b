import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { action, runner, runSteps } from '../support/ci-runner.ts';
import { workflowJob } from '../support/ci-steps.ts';
import { run } from '../support/package.ts';
import { PROJECT_ROOT, referenceTargetEnv } from '../support/run-suite.ts';
import { standInForTests, type Call } from '../support/stand-in.ts';

// The action's inputs and the CI recipes' jobs, their scripts run as their CI runs them (bash for GitHub and
// GitLab, sh in a Kubernetes pod) with the suite's command standing in: each call of it is run in this process,
// by the engine or merge, with the arguments, environment and folder the script gave it, and the script goes on
// with its exit code (support/stand-in.ts). That the command carries the same verdicts and exit codes as a
// process is ci.test.ts's to show.

// A fault the admin token alone exposes, as the recipes configure nothing more.
const fault = FAULTS.find((f) => f.name === 'project-health-above-100')!;
let server: Awaited<ReturnType<typeof startReferenceServer>>;
const standIn = standInForTests();

test.beforeAll(async () => {
  server = await startReferenceServer(0, [fault]);
});

test.afterAll(async () => new Promise<void>((resolve) => (server ? server.server.close(() => resolve()) : resolve())));

/** The action, its command standing in. */
const standInAction = (inputs: Record<string, string>) => action(inputs, {}, standIn.actionPath, false);

/** The calls of the stand-ins made while `work` ran. */
async function callsOf<T>(work: () => Promise<T>): Promise<[T, Call[]]> {
  const from = standIn.calls.length;
  const result = await work();
  return [result, standIn.calls.slice(from)];
}

test('the action claims what its claim input names: given the admin token alone, a narrowed claim passes and a whole one gives no verdict', async () => {
  const env = referenceTargetEnv(server.url);
  const alone = { 'base-url': env.CONFORMANCE_BASE_URL, 'admin-token': env.CONFORMANCE_ADMIN_TOKEN };
  const narrowed = await standInAction({ ...alone, claim: 'core,projects-data' });
  expect(narrowed.out, narrowed.ran.log).toEqual({ 'exit-code': '0', verdict: 'pass' });
  expect(readFileSync(narrowed.r.summary, 'utf8')).toContain('the target meets every MUST clause of the profiles claimed, core, projects-data');
  const whole = await standInAction(alone);
  expect(whole.out).toEqual({ 'exit-code': '3', verdict: 'partial' });
  expect(whole.gated.exitCode).toBe(3);
});

test('the action holds a run to its baseline: under the regressions gate a failure the baseline had passes the job with a warning that the verdict is still FAIL', async () => {
  const env = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  // Every input a whole claim needs: with its failure set aside, a run that exercised less has no verdict.
  const inputs = {
    'base-url': env.CONFORMANCE_BASE_URL,
    'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
    'forbidden-token': env.CONFORMANCE_FORBIDDEN_TOKEN,
    'signup-tokens': env.CONFORMANCE_SIGNUP_TOKENS,
  };
  const before = await standInAction(inputs);
  expect(before.out, before.ran.log).toEqual({ 'exit-code': '1', verdict: 'fail' });
  const baseline = path.join(before.r.workspace, 'conformance-report');
  const ratchet = await standInAction({ ...inputs, baseline, gate: 'regressions' });
  expect(ratchet.out).toEqual({ 'exit-code': '0', verdict: 'fail' });
  expect(ratchet.gated.exitCode, ratchet.gated.log).toBe(0);
  expect(ratchet.gated.log).toMatch(/^::warning title=Conformance fail, nothing regressed::.*the verdict is still fail/m);
  expect(ratchet.gated.log).not.toContain('PASS');
  // The regressions gate needs a baseline: without one nothing runs.
  const alone = await standInAction({ ...inputs, gate: 'regressions' });
  expect(alone.out).toEqual({ 'exit-code': '2', verdict: 'error' });
});

test('the action fails the job when a secret is missing, and its job summary says what was refused', async () => {
  const { r, out, gated } = await standInAction({ 'base-url': server.url, 'admin-token': '' });
  expect(out).toEqual({ 'exit-code': '2', verdict: 'error' });
  expect(gated.exitCode).toBe(2);
  expect(gated.log).toContain('::error title=Conformance not run::configuration error');
  expect(readFileSync(r.summary, 'utf8')).toBe(
    '## Conformance: configuration error, nothing was checked\n\n> CONFORMANCE\\_ADMIN\\_TOKEN is set but empty in the environment: give it a value or unset it \\(a CI secret that is missing arrives empty\\)\n',
  );
});

// A matrix of deployments uses the action once per deployment in one workflow: each upload needs a name of its own.
test("the action in a matrix: each deployment uploads its report under a name of its own, which never holds the URL's credentials or query", async () => {
  const env = referenceTargetEnv(server.url);
  const port = new URL(server.url).port;
  const named = async (inputs: Record<string, string>) =>
    (await standInAction({ 'admin-token': env.CONFORMANCE_ADMIN_TOKEN, claim: 'core', ...inputs })).artifact;
  expect(await named({ 'base-url': server.url })).toBe(`conformance-report-127.0.0.1-${port}`);
  expect(await named({ 'base-url': `${server.url}/variants/${fault.name}` })).toBe(`conformance-report-127.0.0.1-${port}-variants-${fault.name}`);
  expect(await named({ 'base-url': `http://ops:hunter2-secret@127.0.0.1:${port}/eu?token=abc123#x` })).toBe(`conformance-report-127.0.0.1-${port}-eu`);
  expect(await named({ 'base-url': server.url, 'artifact-name': 'conformance-eu' })).toBe('conformance-eu');
  // A name the upload would refuse is refused before anything runs, in the job summary too.
  const wrong = await standInAction({ 'base-url': server.url, 'admin-token': env.CONFORMANCE_ADMIN_TOKEN, 'artifact-name': 'eu/west:1' });
  expect(wrong.out).toEqual({ 'exit-code': '2', verdict: 'none' });
  expect(readFileSync(wrong.r.summary, 'utf8')).toContain("> the artifact-name input may hold letters, digits, '.', '-' and '_' only");
});

test('the action takes a target file and the product: the report names the target and the product, the artifact the file', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-action-target-'));
  const file = path.join(dir, 'eu-staging.yaml');
  writeFileSync(file, `name: eu-staging\nbaseUrl: ${server.url}\nclaim: [core, projects-data]\n`);
  const env = referenceTargetEnv(server.url);
  const ran = await standInAction({
    'target-file': file,
    'admin-token': env.CONFORMANCE_ADMIN_TOKEN,
    'product-name': 'Flagship Feature Service',
    'product-version': '4.2.0',
  });
  expect(ran.out, ran.ran.log).toEqual({ 'exit-code': '0', verdict: 'pass' });
  expect(ran.artifact).toBe('conformance-report-eu-staging');
  const report: ConformanceReport = JSON.parse(readFileSync(path.join(ran.r.workspace, 'conformance-report', 'conformance.json'), 'utf8'));
  expect(report.target.name).toBe('eu-staging');
  expect(report.product).toMatchObject({ name: 'Flagship Feature Service', version: '4.2.0' });
  // The target file gives the base URL: without it, and without the base-url input, the run has no target and is refused.
  writeFileSync(file, 'name: eu-staging\n');
  const bare = await standInAction({ 'target-file': file, 'admin-token': env.CONFORMANCE_ADMIN_TOKEN });
  expect(bare.out).toEqual({ 'exit-code': '2', verdict: 'error' });
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

// The release recipe publishes to a registry and pushes a tag, which no self-test does: its steps are read in their
// order, and the one that names the repository is run on a copy of package.json.
test('the release recipe tests, packs, publishes with provenance and tags the Action, in that order, and names the repository provenance needs', async () => {
  const file = path.join(PROJECT_ROOT, 'docs', 'ci', 'release.yml');
  const doc = parseYaml(readFileSync(file, 'utf8')) as { on: Record<string, unknown>; permissions: Record<string, string> };
  expect(Object.keys(doc.on)).toEqual(['workflow_dispatch']);
  expect(doc.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
  const { steps } = workflowJob(file, 'release', { 'secrets.NPM_TOKEN': 'npm-token', 'github.token': 'github-token', 'env.VERSION': '0.1.0' });
  const script = steps.map((s) => s.run).join('\n');
  const order = [
    'npm view',
    'npm test',
    'npm pkg set',
    'npm pack',
    'npm publish "admin-api-conformance-$VERSION.tgz" --provenance',
    'git tag "v$VERSION"',
    'git push origin "v$VERSION"',
    'gh release create',
  ];
  const at = order.map((command) => script.indexOf(command));
  expect(
    at.every((i) => i >= 0),
    JSON.stringify(at),
  ).toBe(true);
  expect(at).toEqual([...at].sort((a, b) => a - b));
  // package.json names no repository (it has none yet) and asks for provenance, which needs one: the release names it.
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
  expect(pkg.repository).toBeUndefined();
  expect(pkg.publishConfig).toEqual({ access: 'public', provenance: true });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-release-'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
  const naming = steps.find((s) => s.name === 'Name the repository')!;
  const named = await run('bash', ['-e', '-c', naming.run], dir, { GITHUB_REPOSITORY: 'example-org/admin-api-conformance' }, 60_000, false);
  expect(named.exitCode, named.output).toBe(0);
  expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))).toMatchObject({
    repository: { type: 'git', url: 'git+https://github.com/example-org/admin-api-conformance.git' },
    homepage: 'https://github.com/example-org/admin-api-conformance#readme',
    bugs: { url: 'https://github.com/example-org/admin-api-conformance/issues' },
  });
});

test('every recipe that installs the suite from the registry says it is not published yet, and how to use the packed tarball until then', () => {
  const recipes = readdirSync(path.join(PROJECT_ROOT, 'docs', 'ci')).filter((f) => f !== 'release.yml');
  const installing = recipes.filter((f) => readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', f), 'utf8').includes('admin-api-conformance@0.1.0'));
  expect(installing.length).toBeGreaterThanOrEqual(4);
  for (const recipe of installing) {
    const text = readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', recipe), 'utf8');
    expect(text, recipe).toContain('admin-api-conformance@0.1.0 is not published on the npm registry yet');
    expect(text, recipe).toContain('admin-api-conformance-0.1.0.tgz');
  }
});

const readMatrix = (file: string): MatrixReport => JSON.parse(readFileSync(file, 'utf8'));

// The recipes configure the admin token alone: with one failing clause and the clauses that need other
// tokens not exercised, a report has every kind of status a merge could lose.
const recipeTarget = () => {
  const target = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  return { CONFORMANCE_BASE_URL: target.CONFORMANCE_BASE_URL, CONFORMANCE_ADMIN_TOKEN: target.CONFORMANCE_ADMIN_TOKEN };
};

/** The recipes' deployments: two faithful, one with a fault the admin token alone exposes. */
// In the order of the shell's glob over their files, as the recipes list them.
const DEPLOYMENTS = ['apac', 'eu', 'us'];
const urlOf = (name: string) => (name === 'us' ? `${server.url}/variants/${fault.name}` : server.url);
const MERGED = [
  ['apac', 'pass'],
  ['eu', 'pass'],
  ['us', 'fail'],
];

/** A GitLab job: none of the GitHub variables runSteps gives by default. */
const GITLAB = { GITHUB_ACTIONS: '', GITHUB_RUN_ID: '', GITHUB_RUN_ATTEMPT: '', GITHUB_STEP_SUMMARY: '', GITLAB_CI: 'true' };
type GitLabJob = { variables: Record<string, string>; script: string[]; parallel?: number };

/** A GitLab job's script lines, run in one shell that fails the job at the first that fails, as GitLab runs them. */
const gitlabJob = (r: ReturnType<typeof runner>, job: GitLabJob, env: Record<string, string>) =>
  runSteps(r, [{ name: 'script', run: job.script.join('\n'), env: {} }], { ...job.variables, ...GITLAB, ...standIn.env, ...env }, false);

const INSTALL = ['install', '--no-save', '--no-audit', '--no-fund', 'admin-api-conformance@0.1.0'];

test('the GitLab recipe: the job installs the suite, fails on a violation and leaves junit.xml and the report folder as its artifacts', async () => {
  const doc = parseYaml(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'gitlab-ci.yml'), 'utf8')) as {
    conformance: GitLabJob & { artifacts: { paths: string[]; reports: { junit: string } } };
  };
  const r = runner();
  const [ran, calls] = await callsOf(() => gitlabJob(r, doc.conformance, recipeTarget()));
  expect(ran.exitCode, ran.log).toBe(1);
  expect(calls.map((c) => [c.role, c.args, c.exitCode])).toEqual([
    ['npm', INSTALL, 0],
    ['npx', ['admin-api-conformance'], 1],
  ]);
  const { artifacts } = doc.conformance;
  expect(existsSync(path.join(r.workspace, artifacts.reports.junit))).toBe(true);
  for (const p of artifacts.paths) expect(existsSync(path.join(r.workspace, p))).toBe(true);
  const report: ConformanceReport = JSON.parse(readFileSync(path.join(r.workspace, 'conformance-report', 'conformance.json'), 'utf8'));
  expect(report.verdict).toBe('fail');
});

test('the GitLab recipe keeps the run history in its cache: a second pipeline labels each clause against the first', async () => {
  const doc = parseYaml(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'gitlab-ci.yml'), 'utf8')) as {
    conformance: GitLabJob & { cache: { key: string; paths: string[]; when: string } };
  };
  const { cache } = doc.conformance;
  expect(cache.when).toBe('always');
  const [first, second] = [runner(), runner()];
  await gitlabJob(first, doc.conformance, { ...recipeTarget(), CI_PIPELINE_ID: '801' });
  // GitLab's cache: the paths of the first job, restored into the second's workspace.
  for (const p of cache.paths) cpSync(path.join(first.workspace, p), path.join(second.workspace, p), { recursive: true });
  await gitlabJob(second, doc.conformance, { ...recipeTarget(), CI_PIPELINE_ID: '802' });
  const report: ConformanceReport = JSON.parse(readFileSync(path.join(second.workspace, 'conformance-report', 'conformance.json'), 'utf8'));
  expect(report.clauses.find((c) => c.id === fault.breaks[0])).toMatchObject({ status: 'failed', transition: 'unchanged', recent: ['failed'] });
  const history = readFileSync(path.join(second.workspace, doc.conformance.variables.CONFORMANCE_HISTORY), 'utf8');
  expect(
    history
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).run),
  ).toEqual(['gitlab 801', 'gitlab 802']);
});

test("the GitLab parallel recipe: each job judges the share its CI_NODE_INDEX names, the gate merges them and fails on the run's violation", async () => {
  const doc = parseYaml(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'gitlab-parallel.yml'), 'utf8')) as { conformance: GitLabJob; gate: GitLabJob };
  const token = recipeTarget().CONFORMANCE_ADMIN_TOKEN;
  const pipeline = { CI_PIPELINE_ID: '4711' };
  const gate = runner();
  const total = doc.conformance.parallel!;
  expect(total).toBe(DEPLOYMENTS.length);
  for (let index = 1; index <= total; index++) {
    const r = runner();
    mkdirSync(path.join(r.workspace, 'conformance', 'targets'), { recursive: true });
    for (const name of DEPLOYMENTS) writeFileSync(path.join(r.workspace, 'conformance', 'targets', `${name}.yaml`), `name: ${name}\nbaseUrl: ${urlOf(name)}\n`);
    const [ran, calls] = await callsOf(() =>
      gitlabJob(r, doc.conformance, {
        ...pipeline,
        CI_NODE_INDEX: String(index),
        CI_NODE_TOTAL: String(total),
        DEPLOYMENT_ADMIN_TOKENS: DEPLOYMENTS.map((name) => `${name}=${token}`).join('\n'),
      }),
    );
    expect(ran.exitCode, ran.log).toBe(0);
    // A shard alone has no verdict of the run unless it finds a violation: the job goes on, saying which.
    const exitCode = DEPLOYMENTS[index - 1] === 'us' ? 1 : 3;
    expect(calls.map((c) => [c.role, c.args, c.exitCode])).toEqual([
      ['npm', INSTALL, 0],
      ['npx', ['admin-api-conformance', '--shard=auto'], exitCode],
    ]);
    expect(ran.log).toContain(`shard ${index}/${total} ended with exit code ${exitCode}`);
    const shard = path.join(r.workspace, `conformance-report-${index}`);
    const matrix = readMatrix(path.join(shard, 'conformance.json'));
    expect([matrix.shard, matrix.run, matrix.targets.map((t) => t.name)]).toEqual([`${index}/${total}`, 'gitlab 4711', [DEPLOYMENTS[index - 1]]]);
    // GitLab hands the gate job every artifact of the stage before, in its workspace.
    cpSync(shard, path.join(gate.workspace, `conformance-report-${index}`), { recursive: true });
  }
  const merged = await gitlabJob(gate, doc.gate, pipeline);
  expect(merged.exitCode, merged.log).toBe(1);
  const matrix = readMatrix(path.join(gate.workspace, 'conformance-report', 'conformance.json'));
  expect([matrix.verdict, matrix.targets.map((t) => [t.name, t.verdict])]).toEqual(['fail', MERGED]);
});

test("the Kubernetes recipe: each pod of the Indexed Job judges the share its JOB_COMPLETION_INDEX names, the merge Job fails on the run's violation", async () => {
  type Container = { env: { name: string; value?: string }[]; command: string[]; workingDir: string };
  type Job = { metadata: { name: string }; spec: { completions?: number; template: { spec: { containers: Container[] } } } };
  const jobs = parseAllDocuments(readFileSync(path.join(PROJECT_ROOT, 'docs', 'ci', 'kubernetes-indexed-job.yaml'), 'utf8')).map((d) => d.toJS() as Job);
  const [shards, merge] = ['conformance-shards', 'conformance-merge'].map((name) => jobs.find((j) => j.metadata.name === name)!);
  // The container as Kubernetes starts it: its command (sh -c and its script) and its env, a value from the
  // downward API filled in as the Job would; the Secret and the volumes are folders of this machine.
  const token = recipeTarget().CONFORMANCE_ADMIN_TOKEN;
  const [targets, reports] = [mkdtempSync(path.join(os.tmpdir(), 'conformance-k8s-targets-')), mkdtempSync(path.join(os.tmpdir(), 'conformance-k8s-reports-'))];
  for (const name of DEPLOYMENTS) writeFileSync(path.join(targets, `${name}.yaml`), `name: ${name}\nbaseUrl: ${urlOf(name)}\nadminToken: ${token}\n`);
  const pod = (job: Job, extra: Record<string, string>) => {
    const [container] = job.spec.template.spec.containers;
    expect(container.workingDir).toBe('/work');
    // The one value from the downward API is the Job's uid, the run's identity.
    const env = Object.fromEntries(container.env.map((e) => [e.name, e.value ?? 'job-uid-0c1d']));
    const [command, ...args] = container.command;
    const work = mkdtempSync(path.join(os.tmpdir(), 'conformance-k8s-work-'));
    return callsOf(() => run(command, args, work, { ...env, TARGETS_DIR: targets, REPORTS_DIR: reports, ...standIn.env, ...extra }, 120_000, false));
  };
  expect(shards.spec.completions).toBe(DEPLOYMENTS.length);
  for (let index = 0; index < DEPLOYMENTS.length; index++) {
    const [ran, calls] = await pod(shards, { JOB_COMPLETION_INDEX: String(index) });
    expect(ran.exitCode, ran.output).toBe(0);
    expect(calls.map((c) => [c.role, c.args])).toEqual([
      ['npm', INSTALL],
      ['npx', ['admin-api-conformance', '--shard=auto/3']],
    ]);
    const matrix = readMatrix(path.join(reports, 'shards', String(index), 'conformance.json'));
    expect([matrix.shard, matrix.run, matrix.targets.map((t) => t.name)]).toEqual([`${index + 1}/3`, 'job-uid-0c1d', [DEPLOYMENTS[index]]]);
  }
  const [merged] = await pod(merge, {});
  expect(merged.exitCode, merged.output).toBe(1);
  const matrix = readMatrix(path.join(reports, 'merged', 'conformance.json'));
  expect([matrix.verdict, matrix.targets.map((t) => [t.name, t.verdict])]).toEqual(['fail', MERGED]);
});
