import type { RunTargets } from './targets.ts';

// Playwright loads the config in the runner and again in every worker, and starts a new worker after each
// failing clause. The runner reads the configuration once and hands its workers the little the config
// needs, through the environment they inherit, so that a worker loads no schemas, YAML or renderers.

/** What the Playwright config needs of the run's configuration. */
export interface RunShape {
  /** Where the run's own reports go. */
  reportDir: string;
  /** One Playwright project per target, by name; none for a single target. */
  projects: string[] | undefined;
  runTimeoutMs: number;
}

export const SHAPE_VARIABLE = 'ADMIN_API_CONFORMANCE_SHAPE';

/** A run the command refused before Playwright read this suite's configuration: the line that says why. */
export const REFUSAL_VARIABLE = 'ADMIN_API_CONFORMANCE_REFUSAL';

export function shapeOf(run: RunTargets): RunShape {
  return { reportDir: run.reportDir, projects: run.multi ? run.targets.map((t) => t.name) : undefined, runTimeoutMs: run.targets[0].runTimeoutMs };
}

/** The shape the runner left for its workers; none (the worker then reads the configuration itself) when absent or not one. */
export function inheritedShape(env: Record<string, string | undefined>): RunShape | undefined {
  let shape: Partial<RunShape>;
  try {
    shape = JSON.parse(env[SHAPE_VARIABLE] ?? '');
  } catch {
    return undefined;
  }
  const projects = shape?.projects;
  const fits =
    typeof shape?.reportDir === 'string' &&
    typeof shape.runTimeoutMs === 'number' &&
    (projects === undefined || (Array.isArray(projects) && projects.every((p) => typeof p === 'string')));
  return fits ? (shape as RunShape) : undefined;
}
