import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse as parseYaml } from 'yaml';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { outputs, runner, runSteps } from '../support/ci-runner.ts';
import { actionSteps, substitute } from '../support/ci-steps.ts';
import { PROJECT_ROOT, referenceTargetEnv } from '../support/run-suite.ts';
import { standInForTests } from '../support/stand-in.ts';

// The action keeps the run history across workflow runs in the Actions cache: its restore and save steps, as
// action.yml writes them, run here against a cache of this test's (a key is written once; a restore takes the
// exact key, or the newest entry whose key begins with a restore key), each workflow run in a fresh workspace.
// The suite's command stands in (support/stand-in.ts).

const ACTION = path.join(PROJECT_ROOT, 'action.yml');
const fault = FAULTS.find((f) => f.name === 'project-health-above-100')!;
let server: Awaited<ReturnType<typeof startReferenceServer>>;
const standIn = standInForTests();

test.beforeAll(async () => {
  server = await startReferenceServer(0, [fault]);
});
test.afterAll(async () => new Promise<void>((resolve) => server.server.close(() => resolve())));

interface CacheStep {
  uses: string;
  with: { path: string; key: string; 'restore-keys'?: string };
}

/** The action's cache steps, `with` filled in as the runner fills it. */
function cacheSteps(values: Record<string, string>): { restore: CacheStep['with']; save: CacheStep['with'] } {
  const steps = (parseYaml(readFileSync(ACTION, 'utf8')) as { runs: { steps: CacheStep[] } }).runs.steps;
  const filled = (name: string) => {
    const step = steps.find((s) => s.uses?.startsWith(`actions/cache/${name}@`))!;
    return Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, substitute(String(v), values)])) as CacheStep['with'];
  };
  return { restore: filled('restore'), save: filled('save') };
}

/** A cache as GitHub keeps one: entries by key, in the order they were saved, none written over. */
const cache = new Map<string, Buffer>();

/** One workflow run of a job using the action: key, restore, run, save; the run's report and the workspace. */
async function workflowRun(runId: string, inputs: Record<string, string>): Promise<{ report: ConformanceReport; exitCode: string; history: string }> {
  const r = runner();
  const env = { ...standIn.env, GITHUB_ACTION_PATH: standIn.actionPath, GITHUB_WORKFLOW: 'Conformance nightly', GITHUB_RUN_ID: runId };
  const steps = actionSteps(ACTION, inputs, { 'steps.run.outputs.exit-code': '', 'steps.run.outputs.verdict': '' });
  await runSteps(r, [steps.find((s) => s.id === 'history')!], env, false);
  const key = outputs(r)['history-key'];
  const { restore, save } = cacheSteps({
    'inputs.history': inputs.history,
    'steps.history.outputs.history-key': key,
    'github.run_id': runId,
    'github.run_attempt': '1',
  });
  const hit = cache.get(restore.key) ?? [...cache].reverse().find(([k]) => k.startsWith(restore['restore-keys']!))?.[1];
  const file = path.join(r.workspace, restore.path);
  if (hit) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, hit);
  }
  const ran = await runSteps(r, [steps.find((s) => s.id === 'run')!], env, false);
  expect(ran.exitCode, ran.log).toBe(0);
  expect(cache.has(save.key)).toBe(false);
  if (existsSync(path.join(r.workspace, save.path))) cache.set(save.key, readFileSync(path.join(r.workspace, save.path)));
  const report = JSON.parse(readFileSync(path.join(r.workspace, 'conformance-report', 'conformance.json'), 'utf8'));
  return { report, exitCode: outputs(r)['exit-code'], history: readFileSync(file, 'utf8') };
}

test('the history survives a second workflow run: restored from the cache, labelled against, and saved with both runs', async () => {
  const env = referenceTargetEnv(`${server.url}/variants/${fault.name}`);
  const inputs = { 'base-url': env.CONFORMANCE_BASE_URL, 'admin-token': env.CONFORMANCE_ADMIN_TOKEN, claim: 'core', history: 'history/conformance.jsonl' };
  const first = await workflowRun('9001', inputs);
  const [broken] = fault.breaks;
  expect(first.report.clauses.find((c) => c.id === broken)?.transition).toBe('new');
  const second = await workflowRun('9002', inputs);
  expect(second.exitCode).toBe('1');
  expect(second.report.clauses.find((c) => c.id === broken)).toMatchObject({ status: 'failed', transition: 'unchanged', recent: ['failed'] });
  expect(
    second.history
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).run),
  ).toEqual(['github 9001 attempt 1', 'github 9002 attempt 1']);
  // One entry per workflow run, under the workflow's and the target's key, which holds no credential.
  expect([...cache.keys()]).toEqual(
    [9001, 9002].map((id) => `conformance-history-Conformance-nightly-127.0.0.1-${new URL(server.url).port}-variants-${fault.name}-${id}-1`),
  );
});
