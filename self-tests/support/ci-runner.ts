import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { actionSteps, type ShellStep } from './ci-steps.ts';
import { run } from './package.ts';
import { PROJECT_ROOT } from './run-suite.ts';

// A CI job as the action's and the recipes' shell steps see it: a workspace, the files GitHub Actions gives a job
// (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) and its variables, and the steps run in order as a runner runs them.

export interface Runner {
  workspace: string;
  output: string;
  summary: string;
}

export function runner(): Runner {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'conformance-ci-'));
  const files = mkdtempSync(path.join(os.tmpdir(), 'conformance-ci-files-'));
  const [output, summary] = [path.join(files, 'output'), path.join(files, 'summary')];
  writeFileSync(output, '');
  writeFileSync(summary, '');
  return { workspace, output, summary };
}

/** What a GitHub runner gives every step of a job: its run, its workspace, and the files a step writes its outputs and summary to. */
export const githubEnv = (r: Pick<Runner, 'workspace' | 'output' | 'summary'>): Record<string, string> => ({
  CI: 'true',
  GITHUB_ACTIONS: 'true',
  GITHUB_RUN_ID: '7001',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_WORKSPACE: r.workspace,
  GITHUB_OUTPUT: r.output,
  GITHUB_STEP_SUMMARY: r.summary,
});

/**
 * Runs shell steps in order as a runner would, stopping at the first that fails; the last exit code. `suite`: whether
 * the steps may start the suite (support/package.ts, run), false when its command stands in (support/stand-in.ts).
 */
export async function runSteps(r: Runner, steps: ShellStep[], env: Record<string, string>, suite = true): Promise<{ exitCode: number | null; log: string }> {
  let log = '';
  for (const step of steps) {
    const ciEnv = { ...githubEnv(r), ...env, ...step.env };
    const result = await run('bash', ['-e', '-c', step.run], r.workspace, ciEnv, 120_000, suite);
    log += `--- ${step.name}\n${result.output}`;
    if (result.exitCode !== 0) return { exitCode: result.exitCode, log };
  }
  return { exitCode: 0, log };
}

/** The step outputs a job's steps wrote, as `${{ steps.<id>.outputs.… }}` gives them. */
export const outputs = (r: Runner): Record<string, string> =>
  Object.fromEntries(
    readFileSync(r.output, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('=')),
  );

/**
 * The action (action.yml) run as a job runs it, with these inputs: its install and run steps, then its gate step,
 * filled in with the run step's outputs. `actionPath` is its checkout (GITHUB_ACTION_PATH): this repository, or
 * one whose command stands in (`suite` false).
 */
export async function action(inputs: Record<string, string>, env: Record<string, string> = {}, actionPath = PROJECT_ROOT, suite = true) {
  const r = runner();
  const file = path.join(PROJECT_ROOT, 'action.yml');
  // The run step's outputs are not known before it runs; the gate step, which reads them, is filled in after. The
  // shell steps up to the run step are run (the history's cache key among them); the cache's own steps are the test's.
  // Only the run step starts the suite's command: the steps before it and the gate step are no runs of it.
  const steps = actionSteps(file, inputs, { 'steps.run.outputs.exit-code': '', 'steps.run.outputs.verdict': '' });
  const at = steps.findIndex((s) => s.id === 'run');
  const before = await runSteps(r, steps.slice(0, at), { GITHUB_ACTION_PATH: actionPath, ...env }, false);
  const ran = before.exitCode === 0 ? await runSteps(r, [steps[at]], { GITHUB_ACTION_PATH: actionPath, ...env }, suite) : before;
  if (ran !== before) ran.log = before.log + ran.log;
  // The artifact's name is the inputs', apart from the run's two outputs, which are what the gate reads.
  const { 'artifact-name': artifact, ...out } = outputs(r);
  const gate = actionSteps(file, inputs, { 'steps.run.outputs.exit-code': out['exit-code'], 'steps.run.outputs.verdict': out.verdict }).at(-1)!;
  const gated = await runSteps(r, [gate], { GITHUB_ACTION_PATH: actionPath }, false);
  return { r, ran, out, artifact, gated };
}
