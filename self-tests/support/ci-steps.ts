import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

// The shell steps of a GitHub Actions workflow or composite action, read from the YAML as CI reads it,
// with the `${{ … }}` expressions a runner would fill in replaced from a table.

export interface ShellStep {
  name: string;
  run: string;
  env: Record<string, string>;
  id?: string;
}

interface YamlStep {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  env?: Record<string, unknown>;
}

/** Replaces every `${{ expression }}` from the table; an expression the table lacks is an error, never blank. */
export function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
    if (!(expression in values)) throw new Error(`no value for \${{ ${expression} }}`);
    return values[expression];
  });
}

function shellSteps(steps: YamlStep[], values: Record<string, string>): ShellStep[] {
  return steps
    .filter((s) => s.run !== undefined)
    .map((s) => ({
      name: s.name ?? s.run!.split('\n')[0],
      id: s.id,
      run: substitute(s.run!, values),
      env: Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, substitute(String(v), values)])),
    }));
}

/** The `uses:` steps a job has, by action name: a test stands in for them (setup, upload, download). */
export function usedActions(file: string, job: string): string[] {
  const doc = parseYaml(readFileSync(file, 'utf8')) as { jobs: Record<string, { steps: YamlStep[] }> };
  return doc.jobs[job].steps.flatMap((s) => (s.uses ? [s.uses.split('@')[0]] : []));
}

/** A workflow job's shell steps and the workflow's own env, expressions filled in. */
export function workflowJob(file: string, job: string, values: Record<string, string>): { env: Record<string, string>; steps: ShellStep[] } {
  const doc = parseYaml(readFileSync(file, 'utf8')) as { env?: Record<string, unknown>; jobs: Record<string, { steps: YamlStep[] }> };
  const env = Object.fromEntries(Object.entries(doc.env ?? {}).map(([k, v]) => [k, substitute(String(v), values)]));
  return { env, steps: shellSteps(doc.jobs[job].steps, values) };
}

/** A composite action's shell steps, its inputs' defaults beside the given inputs. */
export function actionSteps(file: string, inputs: Record<string, string>, values: Record<string, string> = {}): ShellStep[] {
  const doc = parseYaml(readFileSync(file, 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { steps: YamlStep[] } };
  const given = Object.fromEntries(Object.entries(doc.inputs).map(([name, spec]) => [`inputs.${name}`, inputs[name] ?? spec.default ?? '']));
  return shellSteps(doc.runs.steps, { ...given, ...values });
}
