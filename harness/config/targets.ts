import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import { targetConfig, type TargetConfig } from './config.ts';
import { readSettings, SHARD_VARIABLE, TARGETS_VARIABLE, type Settings } from './settings.ts';
import { variable } from './sources.ts';
import { NAME_MAX_CHARACTERS } from './target-name.ts';

// The run's targets: the one the settings describe, or those of CONFORMANCE_TARGETS, each in a report folder of
// its own, and the share of them a shard judges.

/** The identity of a sharded run, one value shared by its shards, so that a merge refuses shards of different runs. */
export const RUN_ID_VARIABLE = 'CONFORMANCE_RUN_ID';

/**
 * A target's name as a folder name: never `.` or `..`, nor hidden, so a name cannot lead out of `targets/`; ASCII
 * alone, and no longer than a name may be (target-name.ts), so that any file system takes it.
 */
export const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .slice(0, NAME_MAX_CHARACTERS)
    .replace(/^[.-]+|[.-]+$/g, '') || 'target';

/** Where the i-th target of the run was given: its file, or its place in a fleet file. */
const whereOf = (settings: Settings, i: number) => settings.entries[i].file?.where ?? `target ${i + 1}`;

/** The targets of several files, each with a report folder of its own below the run's, and the run's folder. */
function loadSeveral(settings: Settings): { targets: TargetConfig[]; reportDir: string } {
  // A fleet file stands for its targets (settings.ts), each with the tokens its environment variables hold.
  const configs = settings.entries.map((entry) => targetConfig(settings, entry));
  // Every file is read with the same environment and `.env`, and a target file names no report folder.
  const { reportDir } = configs[0];
  // Each target's reports hide every target's tokens, its own as their placeholders and the others' as well: one
  // list for the run, so that the search for them is made once (harness/secrets/redact.ts).
  const others = configs.map(({ adminToken, forbidden, signupTokens, network }) => ({ adminToken, forbidden, signupTokens, network }));
  const targets = configs.map((config) => ({ ...config, others, reportDir: path.join(reportDir, 'targets', slug(config.name)) }));
  // Each name looked up once, then each folder, so that a fleet of thousands loads in linear time.
  const names = new Map<string, number>();
  for (const [i, { name }] of targets.entries()) {
    const first = names.get(name);
    if (first !== undefined)
      throw new ConfigError(
        `${whereOf(settings, i)} has the name "${name}" of ${whereOf(settings, first)}; give each target of ${TARGETS_VARIABLE} a name of its own`,
      );
    names.set(name, i);
  }
  // Names that differ only in case or punctuation share a report folder: one target's reports would overwrite the other's.
  const folders = new Map<string, string>();
  for (const name of names.keys()) {
    const folder = slug(name);
    const first = folders.get(folder);
    if (first !== undefined)
      throw new ConfigError(
        `the targets "${first}" and "${name}" would share the report folder targets/${folder}; give them names that differ in more than case or punctuation`,
      );
    folders.set(folder, name);
  }
  return { targets, reportDir };
}

/** A share of a run's targets: the i-th of n, and every target of the run, so that a merge can tell what is missing. */
export interface Shard {
  current: number;
  total: number;
  /** Every target of the run, by name, those of the other shards included. */
  runTargets: string[];
  /** The run's identity, the same in each of its shards: a re-run of one shard is another run. */
  run: string;
}

export interface RunTargets {
  /** True when the targets come from CONFORMANCE_TARGETS: a report per target, and a matrix report. */
  multi: boolean;
  /** The targets this run judges: all of them, or its shard's. */
  targets: TargetConfig[];
  shard?: Shard;
  /** Where the run's own reports go; with several targets, each also has a folder of its own below it. */
  reportDir: string;
}

/** The targets of CONFORMANCE_TARGETS, or the one target of the other variables, read from the environment and `.env` in `cwd`. */
export function loadTargets(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): RunTargets {
  return targetsOf(readSettings(env, cwd));
}

/** The targets the settings describe, each configuration made of them (a replay's is harness/evidence/replay-bundle.ts's). */
export function targetsOf(settings: Settings): RunTargets {
  if (!settings.multi) {
    const config = targetConfig(settings, settings.entries[0]);
    return { multi: false, targets: [config], reportDir: config.reportDir };
  }
  const several = loadSeveral(settings);
  const shard = variable(settings.variables, SHARD_VARIABLE);
  return { multi: true, ...several, ...(shard === undefined ? {} : shareOf(several.targets, shareGiven(shard, settings.env), () => runIdentity(settings))) };
}

/** A CI engine's own variable, set and not empty; spaces around it are no part of it. */
const givenIn = (env: Record<string, string | undefined>, name: string) => (env[name]?.trim() ? env[name].trim() : undefined);

/** A value quoted in a line: cut, since a variable may hold anything (ConfigError escapes what it holds). */
const quoted = (value: string) => `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;

/** A whole number from `from` to `to`, written in digits alone; undefined otherwise. */
function wholeIn(value: string, from: number, to = Number.MAX_SAFE_INTEGER): number | undefined {
  const number = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  return number >= from && number <= to ? number : undefined;
}

/**
 * The share as i/n: as given, or with `auto` the CI engine's own index. GitLab's `parallel:` numbers its jobs
 * from 1 of CI_NODE_TOTAL; a Kubernetes Indexed Job from 0, and tells no pod how many there are: `auto/n`. A value
 * of theirs that is set is checked, and named with what is wrong with it.
 */
export function shareGiven(text: string, env: Record<string, string | undefined>): string {
  const auto = /^\s*auto\s*(?:\/\s*(\d+)\s*)?$/.exec(text);
  if (!auto) return text;
  const said = `${SHARD_VARIABLE}=${text.trim()}`;
  // GitLab sets CI_NODE_TOTAL (1) in every job, and CI_NODE_INDEX only in a job of parallel:.
  const index = givenIn(env, 'CI_NODE_INDEX');
  if (index !== undefined) return gitlabShare(said, auto[1], index, givenIn(env, 'CI_NODE_TOTAL'));
  const completionIndex = givenIn(env, 'JOB_COMPLETION_INDEX');
  if (completionIndex !== undefined) return indexedJobShare(said, auto[1], completionIndex);
  throw new ConfigError(
    `${said} takes the share from the CI engine: GitLab's parallel: (CI_NODE_INDEX, CI_NODE_TOTAL) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), and neither is set here; give i/n`,
  );
}

/** A job of GitLab's parallel: n, the i-th from 1. */
function gitlabShare(said: string, shares: string | undefined, indexGiven: string, totalGiven: string | undefined): string {
  const from = `${said} takes the share from GitLab's CI_NODE_INDEX of CI_NODE_TOTAL`;
  if (totalGiven === undefined) throw new ConfigError(`${from}, and CI_NODE_INDEX is set but CI_NODE_TOTAL is not; set both, as parallel: does, or give i/n`);
  const total = wholeIn(totalGiven, 1);
  if (total === undefined) throw new ConfigError(`${from}, and CI_NODE_TOTAL is ${quoted(totalGiven)}, not a whole number from 1; give i/n`);
  if (shares !== undefined && Number(shares) !== total)
    throw new ConfigError(`${said} gives ${shares} shares, GitLab's CI_NODE_TOTAL ${totalGiven}: give auto alone`);
  const index = wholeIn(indexGiven, 1, total);
  if (index === undefined)
    throw new ConfigError(`${from}, and CI_NODE_INDEX is ${quoted(indexGiven)}, not a whole number from 1 to CI_NODE_TOTAL (${total}); give i/n`);
  return `${index}/${total}`;
}

/** A pod of a Kubernetes Indexed Job of n completions, the i-th from 0. */
function indexedJobShare(said: string, completions: string | undefined, indexGiven: string): string {
  const from = `${said} takes the share from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX`;
  const index = wholeIn(indexGiven, 0);
  if (index === undefined) throw new ConfigError(`${from}, and JOB_COMPLETION_INDEX is ${quoted(indexGiven)}, not a whole number from 0; give i/n`);
  if (completions === undefined)
    throw new ConfigError(`${SHARD_VARIABLE}=auto in a Kubernetes Indexed Job needs the number of completions, which no pod is told: give auto/<completions>`);
  const total = wholeIn(completions, 1);
  if (total === undefined) throw new ConfigError(`${said} gives no completions: give auto/<completions>, the number of the Job's completions`);
  if (index >= total)
    throw new ConfigError(`${from}, and JOB_COMPLETION_INDEX is ${index}, not a whole number from 0 to ${total - 1} (the ${total} completions ${said} gives)`);
  return `${index + 1}/${total}`;
}

/**
 * The identity of this run, shared by its shards: CONFORMANCE_RUN_ID, or the CI engine's own. GitHub's run
 * id is paired with its attempt, so a re-run of failed jobs is another run; a re-run in GitLab keeps the
 * pipeline's id (docs/configuration.md says so).
 */
export function givenRunIdentity(settings: Settings): string | undefined {
  const own = variable(settings.variables, RUN_ID_VARIABLE);
  if (own !== undefined) {
    // It is printed in merge's one-line refusals and written in every shard's report: one short printable line.
    if (!/^[\x21-\x7e][\x20-\x7e]{0,199}$/.test(own.trim()))
      throw new ConfigError(`${RUN_ID_VARIABLE} is not one line of 1 to 200 printable ASCII characters; give the pipeline's id, such as 4711`);
    return own.trim();
  }
  const { GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT, CI_PIPELINE_ID, BUILDKITE_BUILD_ID } = settings.env;
  if (GITHUB_RUN_ID) return `github ${GITHUB_RUN_ID} attempt ${GITHUB_RUN_ATTEMPT ?? '1'}`;
  if (CI_PIPELINE_ID) return `gitlab ${CI_PIPELINE_ID}`;
  if (BUILDKITE_BUILD_ID) return `buildkite ${BUILDKITE_BUILD_ID}`;
  return undefined;
}

/** The identity a shard needs: a run of several shards without one is refused. */
function runIdentity(settings: Settings): string {
  const given = givenRunIdentity(settings);
  if (given !== undefined) return given;
  throw new ConfigError(
    `${SHARD_VARIABLE} needs the run's identity, so that a merge can refuse shards of different runs: set ${RUN_ID_VARIABLE} to one value in every shard of this run (GitHub Actions, GitLab CI and Buildkite give one of their own)`,
  );
}

/**
 * The i-th of n shares of the targets, every n-th from the i-th: each target is judged whole, in one shard,
 * and every request to it is sent once.
 */
export function shareOf(targets: TargetConfig[], text: string, run: () => string): { targets: TargetConfig[]; shard: Shard } {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const [current, total] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!(current >= 1 && current <= total)) throw new ConfigError(`${SHARD_VARIABLE} is "${text}"; give i/n, with i from 1 to n, such as 2/3`);
  const share = targets.filter((_, i) => i % total === current - 1);
  if (share.length === 0)
    throw new ConfigError(`shard ${current}/${total} holds no target: the run has ${targets.length}; split it into at most ${targets.length} shards`);
  return { targets: share, shard: { current, total, runTargets: targets.map((t) => t.name), run: run() } };
}
