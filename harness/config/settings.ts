import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import { readYamlFile } from '../files/yaml-file.ts';
import { deviationsFile } from './deviations.ts';
import { fleetEntries, TARGETS_MAX } from './fleet-file.ts';
import { readNamedFiles, type NamedFiles } from './named-files.ts';
import { networkFiles } from './network-settings.ts';
import { readSigningKeys, signingKeyFile, type SigningKeys } from './signing.ts';
import { layered, readVariables, variable, type Source, type Variables } from './sources.ts';
import { layersOf, readTargetFile, targetSource, type TargetEntry } from './target-file.ts';
import { tokenReader, type TokenReader } from './token-variables.ts';

// The run's settings, read once and here alone: the environment, `.env` (once, however many targets), the target
// files and fleet files, and the files they name. Each target's configuration is a pure function of this value
// (config.ts), made without reading a file or a variable again.

/** Several target files or fleet files, judged in one run: a Playwright project each up to eight, one fleet beyond (run/fleet.ts). */
export const TARGETS_VARIABLE = 'CONFORMANCE_TARGETS';

/** The share of CONFORMANCE_TARGETS this run judges, `i/n`: a CI job of n judges its own targets. */
export const SHARD_VARIABLE = 'CONFORMANCE_SHARD';

/** An evidence bundle whose exchanges the run judges instead of a target's answers (harness/evidence/replay-bundle.ts). */
export const REPLAY_VARIABLE = 'CONFORMANCE_REPLAY';

/** A run's settings as one value: what was given, and every file it names, read. */
export interface Settings {
  /** The environment as given, whole: a fleet file's token variables, the CI service's and the network's are read from it. */
  env: Source;
  /** The folder relative paths are taken from, and `.env` read in. */
  cwd: string;
  /** The CONFORMANCE_ variables of the environment and of `.env`, names checked, values as given. */
  variables: Variables;
  /** The evidence bundle to replay, as given: the run's one target is the bundle's (harness/evidence/replay-bundle.ts). */
  replay?: string;
  /** True when CONFORMANCE_TARGETS names the targets, each file describing its own alone. */
  multi: boolean;
  /** The targets described, in order: the variables' one (with CONFORMANCE_TARGET's file), or those of CONFORMANCE_TARGETS's files. */
  entries: TargetEntry[];
  /** The files the targets' settings name (deviations, certificates, keys), each read once. */
  files: NamedFiles;
  /** The keys that sign the attestation, by file, each read once. */
  signingKeys: SigningKeys;
}

/** The run's settings, read once: a mistake that needs no target's configuration to be seen ends it here. */
export function readSettings(env: Source, cwd: string): Settings {
  const variables = readVariables(env, cwd);
  const replay = variable(variables, REPLAY_VARIABLE);
  // Empty, it would leave the run to whatever else is set, the embedded target at worst: a missing value is a mistake.
  if (replay === '') throw new ConfigError(`${REPLAY_VARIABLE} is set but empty: give the evidence bundle to replay, or unset it`);
  // The variables a fleet file may take its tokens from, declared by the run (token-variables.ts), checked whether or not a fleet names them.
  const read = tokenReader(env);
  // A replay's target is the bundle's: no file describes it.
  const { multi, entries } = replay === undefined ? describedTargets(variables, read, cwd) : { multi: false, entries: [{ alone: false }] };
  const sources = entries.map((entry) => layered(layersOf(variables, entry)));
  return {
    env,
    cwd,
    variables,
    ...(replay !== undefined && { replay }),
    multi,
    entries,
    files: readNamedFiles(sources.flatMap((source) => [...networkFiles(source, env, cwd), deviationsFile(source, cwd)].filter((f) => f !== undefined))),
    signingKeys: readSigningKeys(sources.flatMap((source) => signingKeyFile(source, cwd) ?? [])),
  };
}

/** The targets of CONFORMANCE_TARGETS, or the one target of the other variables. */
function describedTargets(variables: Variables, read: TokenReader, cwd: string): Pick<Settings, 'multi' | 'entries'> {
  const raw = variable(variables, TARGETS_VARIABLE);
  if (!raw) {
    if (variable(variables, SHARD_VARIABLE) !== undefined)
      throw new ConfigError(`${SHARD_VARIABLE} splits the targets of ${TARGETS_VARIABLE}; a single target is judged whole, in one run: unset it`);
    const given = variable(variables, 'CONFORMANCE_TARGET');
    if (!given) return { multi: false, entries: [{ alone: false }] };
    const source = readTargetFile(path.resolve(cwd, given));
    return { multi: false, entries: [{ alone: false, file: { where: `the target file ${given}`, name: given, source } }] };
  }
  const files = raw.split(',').map((f) => f.trim());
  if (files.some((f) => f === '')) throw new ConfigError(`${TARGETS_VARIABLE} has an empty entry: remove the stray comma`);
  const entries: TargetEntry[] = [];
  for (const given of files) {
    entries.push(...entriesOf(given, read, cwd));
    // Counted file by file, so that no file is read beyond the bound.
    if (entries.length > TARGETS_MAX)
      throw new ConfigError(
        `${TARGETS_VARIABLE} names more than ${TARGETS_MAX} targets; a run judges at most ${TARGETS_MAX}, its shards' together: split them into several runs`,
      );
  }
  return { multi: true, entries };
}

/**
 * The targets of one file of CONFORMANCE_TARGETS: a fleet file's, checked as it is read, or a target file's one,
 * whose settings are checked when its configuration is made, in the order of the targets.
 */
function entriesOf(given: string, read: TokenReader, cwd: string): TargetEntry[] {
  const file = path.resolve(cwd, given);
  const content = readYamlFile(file, 'the target file');
  const fleet = fleetEntries(content, file, read);
  if (fleet !== undefined) return fleet;
  return [
    {
      alone: true,
      file: {
        where: `the target file ${given}`,
        name: given,
        source: refusedOrNot(() => targetSource(content, path.dirname(file), `the target file ${file}`)),
      },
    },
  ];
}

/** A target file's settings, or the configuration error they are refused with, kept to be raised in the target's turn. */
function refusedOrNot(source: () => Source): Source | ConfigError {
  try {
    return source();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}
