import path from 'node:path';
import { check, schemaFile } from '../files/checked.ts';
import { ConfigError } from '../files/config-error.ts';
import { readYamlFile } from '../files/yaml-file.ts';
import { PRODUCT_VARIABLES, productSource } from './product.ts';
import { merge, type Layers, type Merged, type Source, type Variables } from './sources.ts';

// A target file describes one target in YAML, a key for each variable (`baseUrl` for CONFORMANCE_BASE_URL); an
// entry is one target as the settings describe it, and its layers are the sources its settings are merged from.

const TARGET_FILE_KEYS: Record<string, string> = {
  name: 'CONFORMANCE_TARGET_NAME',
  baseUrl: 'CONFORMANCE_BASE_URL',
  adminToken: 'CONFORMANCE_ADMIN_TOKEN',
  forbiddenToken: 'CONFORMANCE_FORBIDDEN_TOKEN',
  forbiddenTokenSignup: 'CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP',
  forbiddenTokenProjects: 'CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS',
  signupTokens: 'CONFORMANCE_SIGNUP_TOKENS',
  timeoutMs: 'CONFORMANCE_TIMEOUT_MS',
  maxBodyBytes: 'CONFORMANCE_MAX_BODY_BYTES',
  deviations: 'CONFORMANCE_DEVIATIONS',
  caFile: 'CONFORMANCE_CA_FILE',
  clientCert: 'CONFORMANCE_CLIENT_CERT',
  clientKey: 'CONFORMANCE_CLIENT_KEY',
  openapiPath: 'CONFORMANCE_OPENAPI_PATH',
  claim: 'CONFORMANCE_CLAIM',
  readProductVersion: 'CONFORMANCE_READ_PRODUCT_VERSION',
};

/** A variable's key in a target file, where a target file may give it. */
const fileKeyOf = (variable: string) => Object.keys(TARGET_FILE_KEYS).find((k) => TARGET_FILE_KEYS[k] === variable);

/** A variable as a message names it: with its key in a target file, where it may have been given instead. */
export const settingName = (variable: string) => {
  const key = fileKeyOf(variable);
  return key ? `${variable} (${key})` : variable;
};

/** Keys whose value is a path, read relative to the target file that names it. */
const PATH_KEYS = new Set(['deviations', 'caFile', 'clientCert', 'clientKey']);

/** The keys of a target file that hold secrets: a fleet file names the environment variable of each instead. */
export const TOKEN_KEYS = ['adminToken', 'forbiddenToken', 'forbiddenTokenSignup', 'forbiddenTokenProjects', 'signupTokens'];

/** A target described as a target file does, read from `where`: its paths relative to `dir`. */
export function targetSource(value: unknown, dir: string, where: string): Source {
  const read = check<Record<string, string | number | string[]>>(schemaFile('target-file.schema.json'), value);
  if (!read.ok) throw new ConfigError(`${where}: ${read.errors.join('; ')}; known keys: ${[...Object.keys(TARGET_FILE_KEYS), 'product'].join(', ')}`);
  const out: Source = {};
  for (const [key, entry] of Object.entries(read.value)) {
    // The product block stands for the product variables (PRODUCT_VARIABLES).
    if (key === 'product' && Object.assign(out, productSource(entry as unknown as Record<string, string>))) continue;
    const text = Array.isArray(entry) ? entry.join(',') : String(entry);
    out[TARGET_FILE_KEYS[key]] = PATH_KEYS.has(key) ? path.resolve(dir, text) : text;
  }
  return out;
}

/** A target file's settings, read and checked. */
export function readTargetFile(file: string): Source {
  return targetSource(readYamlFile(file, 'the target file'), path.dirname(file), `the target file ${file}`);
}

/** One target as the settings describe it (harness/config/settings.ts): by the variables, a target file, or a fleet file's entry. */
export interface TargetEntry {
  /** Set for a target of CONFORMANCE_TARGETS: its file alone describes it, and no variable may describe it too. */
  alone: boolean;
  /**
   * The file that describes it, read: how messages name it (`where`) and notices (`name`), and its settings, or the
   * error they are refused with, raised when its configuration is made, in the order of the targets.
   */
  file?: { where: string; name: string; source: Source | ConfigError };
  /** A fleet file's tags of the target (fleet-file.ts), the defaults' and its own. */
  tags?: Record<string, string>;
}

/** The variables that describe one target; in a run over several target files, only the files give them. */
export const PER_TARGET_VARIABLES = new Set(
  [...Object.values(TARGET_FILE_KEYS), ...Object.values(PRODUCT_VARIABLES), 'CONFORMANCE_TARGET'].filter(
    (v) => !['CONFORMANCE_TIMEOUT_MS', 'CONFORMANCE_MAX_BODY_BYTES'].includes(v),
  ),
);
// A staging network's certificate authority and client certificate usually serve all its targets alike, as a claim may.
// So may the reading of the product's version (CONFORMANCE_READ_PRODUCT_VERSION), where a fleet runs one product.
for (const variable of ['CONFORMANCE_CA_FILE', 'CONFORMANCE_CLIENT_CERT', 'CONFORMANCE_CLIENT_KEY', 'CONFORMANCE_CLAIM', 'CONFORMANCE_READ_PRODUCT_VERSION'])
  PER_TARGET_VARIABLES.delete(variable);

/**
 * A mistake in a target's settings, said where they were given and in the words of the file that gave them: a target
 * of CONFORMANCE_TARGETS (a fleet file's place, or a target file) always, each of its settings by its key there; the
 * target file of CONFORMANCE_TARGET when the mistake is in what it gave (the environment wins over it), a setting it
 * may give besides named with its key too. Without it, a fleet of hundreds would hear of `CONFORMANCE_BASE_URL`,
 * which no one set, and not which target.
 */
export function placed(error: unknown, entry: TargetEntry, variables: Variables): unknown {
  if (!(error instanceof ConfigError) || entry.file === undefined || error.message.includes(entry.file.where)) return error;
  const { env, file } = layersOf(variables, entry);
  const fleet = entry.file.where.startsWith('the fleet file');
  const fromFile = (variable: string) => (entry.alone && PER_TARGET_VARIABLES.has(variable)) || (file[variable] !== undefined && env[variable] === undefined);
  const keyOf = (variable: string) => {
    const key = fromFile(variable) ? fileKeyOf(variable) : undefined;
    // A fleet file names the variable that holds each token.
    return key !== undefined && fleet && TOKEN_KEYS.includes(key) ? `${key} (${key}From)` : key;
  };
  const named = /\b(CONFORMANCE_[A-Z_]+)(?: \([A-Za-z]+\))?/g;
  if (!entry.alone && ![...error.message.matchAll(named)].some(([, variable]) => keyOf(variable) !== undefined)) return error;
  // A variable named with its key (settingName) or without: its key where the file gave it, else as a target file may give it too.
  const said = error.message.replace(named, (whole, variable: string) => keyOf(variable) ?? (entry.alone ? whole : settingName(variable)));
  return new ConfigError(`${entry.file.where}: ${said}`);
}

const without = (source: Source, names: Set<string>): Source => Object.fromEntries(Object.entries(source).filter(([k]) => !names.has(k)));

/** The sources of a target's settings: the variables, its file, and `.env`, which describes no target of CONFORMANCE_TARGETS. */
export function layersOf(variables: Variables, entry: TargetEntry): Layers {
  const file = entry.file === undefined || entry.file.source instanceof ConfigError ? {} : entry.file.source;
  return { env: variables.env, file, dotenv: entry.alone ? without(variables.dotenv, PER_TARGET_VARIABLES) : variables.dotenv };
}

/**
 * A target's settings: the command line and environment first, then its file, then `.env`. A target of
 * CONFORMANCE_TARGETS is its file's alone, and names a deployment.
 */
export function sourceOf(variables: Variables, entry: TargetEntry): Merged {
  const given = entry.alone ? [...PER_TARGET_VARIABLES].find((v) => variables.env[v] !== undefined) : undefined;
  if (given) throw new ConfigError(`CONFORMANCE_TARGETS names the target files, which alone describe their targets; unset ${given}`);
  const { file } = entry;
  if (file?.source instanceof ConfigError) throw file.source;
  if (entry.alone && file?.source.CONFORMANCE_BASE_URL === undefined)
    throw new ConfigError(`${file?.where} has no baseUrl; every target in CONFORMANCE_TARGETS must name a deployment`);
  return merge(layersOf(variables, entry), file?.name);
}
