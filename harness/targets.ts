import path from 'node:path';
import { ConfigError, loadConfig, type TargetConfig } from './config.ts';
import { loadReplayTargets, REPLAY_VARIABLE } from './replay-bundle.ts';
import { readVariables } from './sources.ts';

/** Several target files, checked side by side in one run: one Playwright project each. */
export const TARGETS_VARIABLE = 'CONFORMANCE_TARGETS';

/** A target's name as a folder name. */
export const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'target';

function loadSeveral(files: string[], env: Record<string, string | undefined>, cwd: string): TargetConfig[] {
  const targets = files.map((file) => {
    const config = loadConfig(env, cwd, file);
    if (config.embedded) throw new ConfigError(`the target file ${file} has no baseUrl; every file in ${TARGETS_VARIABLE} must name a deployment`);
    return { ...config, reportDir: path.join(config.reportDir, 'targets', slug(config.name)) };
  });
  const names = targets.map((t) => t.name);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined) throw new ConfigError(`two target files in ${TARGETS_VARIABLE} share the name "${repeated}"; give each a distinct name`);
  // Names that differ only in case or punctuation share a report folder: one target's reports would overwrite the other's.
  const folders = names.map(slug);
  const clash = folders.findIndex((f, i) => folders.indexOf(f) !== i);
  if (clash >= 0)
    throw new ConfigError(
      `the targets "${names[folders.indexOf(folders[clash])]}" and "${names[clash]}" would share the report folder targets/${folders[clash]}; give them names that differ in more than case or punctuation`,
    );
  return targets;
}

export interface RunTargets {
  /** True when the targets come from CONFORMANCE_TARGETS: one Playwright project each, and a matrix report. */
  multi: boolean;
  targets: TargetConfig[];
  /** Where the run's own reports go; with several targets, each also has a folder of its own below it. */
  reportDir: string;
}

/** The run's targets: those of CONFORMANCE_TARGETS, or the one target of the other variables. */
export function loadTargets(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): RunTargets {
  const vars = readVariables(env, cwd);
  const replay = vars.env[REPLAY_VARIABLE] ?? vars.dotenv[REPLAY_VARIABLE];
  if (replay) return loadReplayTargets(replay, env, cwd);
  const raw = vars.env[TARGETS_VARIABLE] ?? vars.dotenv[TARGETS_VARIABLE];
  if (!raw) {
    const config = loadConfig(env, cwd);
    return { multi: false, targets: [config], reportDir: config.reportDir };
  }
  const files = raw.split(',').map((f) => f.trim());
  if (files.some((f) => f === '')) throw new ConfigError(`${TARGETS_VARIABLE} has an empty entry: remove the stray comma`);
  const targets = loadSeveral(files, env, cwd);
  return { multi: true, targets, reportDir: path.dirname(path.dirname(targets[0].reportDir)) };
}

/** The target a worker checks, by the name of the project it runs; a single target runs without projects. */
export function targetOfProject({ multi, targets }: RunTargets, projectName: string): TargetConfig {
  if (!multi) return targets[0];
  const target = targets.find((t) => t.name === projectName);
  if (!target) throw new Error(`no target is named "${projectName}"`);
  return target;
}
