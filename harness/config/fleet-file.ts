import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import { readYamlFile } from '../files/yaml-file.ts';
import type { Source } from './sources.ts';
import { TOKEN_KEYS, targetSource, type TargetEntry } from './target-file.ts';

// A fleet file lists many targets in one YAML file, with the settings they share:
//
//   defaults: { claim: [core, projects-data], timeoutMs: 10000 }
//   targets:
//     - { name: eu, baseUrl: https://eu.example.com, adminTokenFrom: EU_ADMIN_TOKEN }
//
// It holds no token: each target names the environment variable of each of its tokens (`adminTokenFrom`), so
// the file can be committed and the tokens stay in the CI's secret store.

/** A name an environment variable can have, so that a token or a typo is never taken for one. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** The keys of one entry that hold no token, and the environment variable each token key names. */
function entryOf(value: unknown, where: string, env: Source): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where} is not a map of settings`);
  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(value)) {
    // The value is never quoted: in a file that should hold no token, it may be one.
    if (TOKEN_KEYS.includes(key))
      throw new ConfigError(`${where} gives ${key} itself; a fleet file holds no token: name its environment variable, as ${key}From: EU_ADMIN_TOKEN`);
    const tokenKey = key.endsWith('From') ? key.slice(0, -'From'.length) : undefined;
    if (tokenKey === undefined || !TOKEN_KEYS.includes(tokenKey)) {
      out[key] = setting;
      continue;
    }
    if (typeof setting !== 'string' || !VARIABLE_NAME.test(setting))
      throw new ConfigError(`${where}: ${key} must name an environment variable, such as EU_ADMIN_TOKEN`);
    const token = env[setting];
    if (token === undefined || token.trim() === '') throw new ConfigError(`${where} takes ${tokenKey} from ${setting}, which is not set or empty`);
    out[tokenKey] = tokenKey === 'adminToken' ? token : token.split(',').map((t) => t.trim());
  }
  return out;
}

/**
 * The targets of a fleet file, from its content as read, each as a target file would give it; undefined when the
 * content is a target file's (it has no `targets` list).
 */
export function fleetEntries(value: unknown, file: string, env: Source): TargetEntry[] | undefined {
  if (value === null || typeof value !== 'object' || !('targets' in value)) return undefined;
  const fleet = value as { defaults?: unknown; targets?: unknown };
  const extra = Object.keys(fleet).find((k) => k !== 'defaults' && k !== 'targets');
  // The key is not quoted: a token pasted at the top level would be one.
  if (extra !== undefined) throw new ConfigError(`the fleet file ${file} has a key besides defaults and targets, which is all it holds`);
  if (!Array.isArray(fleet.targets) || fleet.targets.length === 0)
    throw new ConfigError(`the fleet file ${file}: targets must be a list of one target or more`);
  const defaults = fleet.defaults === undefined ? {} : entryOf(fleet.defaults, `the fleet file ${file}: defaults`, env);
  const own = ['name', 'baseUrl'].find((k) => k in defaults);
  if (own) throw new ConfigError(`the fleet file ${file}: defaults give ${own}, which each target has its own`);
  return fleet.targets.map((target, i) => {
    const where = `the fleet file ${file}, target ${i + 1}`;
    return { alone: true, file: { where, name: where, source: targetSource({ ...defaults, ...entryOf(target, where, env) }, path.dirname(file), where) } };
  });
}

const versionOf = (product: unknown): string | undefined => {
  if (product === null || typeof product !== 'object' || !('version' in product)) return undefined;
  const { version } = product;
  return typeof version === 'string' || typeof version === 'number' ? String(version) : undefined;
};

/**
 * The product version each target of a fleet file states (its own `product:` block, or the defaults'), by
 * name: what is deployed now, for a merge to tell results taken against another version. Its tokens are
 * not read: the merge sends nothing.
 */
export function deployedVersions(file: string): Map<string, string> {
  const value = readYamlFile(file, 'the fleet file');
  if (value === null || typeof value !== 'object' || !('targets' in value) || !Array.isArray(value.targets))
    throw new ConfigError(`${file} is not a fleet file: it has no targets list`);
  const defaults = 'defaults' in value && value.defaults !== null && typeof value.defaults === 'object' ? value.defaults : {};
  const fallback = 'product' in defaults ? versionOf(defaults.product) : undefined;
  const versions = new Map<string, string>();
  for (const [i, target] of value.targets.entries()) {
    if (target === null || typeof target !== 'object' || !('name' in target) || typeof target.name !== 'string')
      throw new ConfigError(`the fleet file ${file}, target ${i + 1} has no name`);
    const version = ('product' in target ? versionOf(target.product) : undefined) ?? fallback;
    if (version !== undefined) versions.set(target.name, version);
  }
  return versions;
}
