import path from 'node:path';
import { check, schemaFile } from '../files/checked.ts';
import { ConfigError } from '../files/config-error.ts';
import { readYamlFile } from '../files/yaml-file.ts';
import { TOKEN_KEYS, targetSource, type TargetEntry } from './target-file.ts';
import { VARIABLE_NAME, type TokenReader } from './token-variables.ts';

// A fleet file lists many targets in one YAML file, with the settings they share:
//
//   defaults: { claim: [core, projects-data], timeoutMs: 10000 }
//   targets:
//     - { name: eu, baseUrl: https://eu.example.com, adminTokenFrom: CONFORMANCE_TOKEN_EU }
//
// It holds no token: each target names the environment variable of each of its tokens (`adminTokenFrom`), so
// the file can be committed and the tokens stay in the CI's secret store; only a variable the run declares as a
// token may be named (token-variables.ts). It is checked against its schema
// (harness/files/schemas/fleet-file.schema.json) where it is read, after the mistakes that have words of their own.

/**
 * The most targets a run judges, its shards' together (each shard reads them all, to name them in its report): a
 * fleet beyond it is split into several runs. docs/configuration.md gives it.
 */
export const TARGETS_MAX = 10_000;

/** The token key a key names the environment variable of (`adminToken` for `adminTokenFrom`), if it is one. */
function tokenKeyOf(key: string): string | undefined {
  const tokenKey = key.endsWith('From') ? key.slice(0, -'From'.length) : undefined;
  return tokenKey !== undefined && TOKEN_KEYS.includes(tokenKey) ? tokenKey : undefined;
}

/** One entry's token keys: never a token itself, and each an environment variable's name. */
function checkTokenKeys(value: unknown, where: string): asserts value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where} is not a map of settings`);
  for (const [key, setting] of Object.entries(value)) {
    // The value is never quoted: in a file that should hold no token, it may be one.
    if (TOKEN_KEYS.includes(key))
      throw new ConfigError(`${where} gives ${key} itself; a fleet file holds no token: name its environment variable, as ${key}From: CONFORMANCE_TOKEN_EU`);
    if (tokenKeyOf(key) !== undefined && (typeof setting !== 'string' || !VARIABLE_NAME.test(setting)))
      throw new ConfigError(`${where}: ${key} must name an environment variable, such as CONFORMANCE_TOKEN_EU`);
  }
}

/** One entry's settings with each token taken from the environment variable it names, if the run declares it a token. */
function withTokens(entry: Record<string, unknown>, where: string, read: TokenReader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(entry)) {
    const tokenKey = tokenKeyOf(key);
    if (tokenKey === undefined) {
      out[key] = setting;
      continue;
    }
    const token = read(setting as string, where, tokenKey);
    out[tokenKey] = tokenKey === 'adminToken' ? token : token.split(',').map((t) => t.trim());
  }
  return out;
}

/** Whether a file's content is a fleet file's: a map with a `targets` list; a target file has none. */
const isFleet = (value: unknown): value is { defaults?: unknown; targets?: unknown } => value !== null && typeof value === 'object' && 'targets' in value;

/** The fleet file's shape: the mistakes that have words of their own first, then its schema. */
function checkFleet(
  fleet: { defaults?: unknown; targets?: unknown },
  file: string,
): asserts fleet is { defaults?: Record<string, unknown>; targets: unknown[] } {
  const extra = Object.keys(fleet).find((k) => k !== 'defaults' && k !== 'targets');
  // The key is not quoted: a token pasted at the top level would be one.
  if (extra !== undefined) throw new ConfigError(`the fleet file ${file} has a key besides defaults and targets, which is all it holds`);
  if (!Array.isArray(fleet.targets) || fleet.targets.length === 0)
    throw new ConfigError(`the fleet file ${file}: targets must be a list of one target or more`);
  // Counted before any target is checked: each check is linear, but a run of more is not one this suite takes.
  if (fleet.targets.length > TARGETS_MAX)
    throw new ConfigError(
      `the fleet file ${file} lists ${fleet.targets.length} targets; a run judges at most ${TARGETS_MAX}, its shards' together: split the fleet into several runs`,
    );
  if (fleet.defaults !== undefined) {
    checkTokenKeys(fleet.defaults, `the fleet file ${file}: defaults`);
    const own = ['name', 'baseUrl'].find((k) => k in (fleet.defaults as object));
    if (own) throw new ConfigError(`the fleet file ${file}: defaults give ${own}, which each target has its own`);
  }
  for (const [i, target] of fleet.targets.entries()) checkTokenKeys(target, `the fleet file ${file}, target ${i + 1}`);
  // A wrong type or an unknown key, named by where it is; no value is quoted (harness/files/checked.ts).
  const read = check(schemaFile('fleet-file.schema.json'), fleet);
  if (!read.ok) throw new ConfigError(`the fleet file ${file}: ${read.errors.join('; ')}`);
}

/**
 * A target's tags, the defaults' with its own over them, as the schema checked them (strings, bounded in count and
 * length); undefined when neither gives any. Together they are bounded as each side is.
 */
function tagsOf(shared: unknown, own: unknown, where: string): Record<string, string> | undefined {
  const tags = { ...(shared as Record<string, string> | undefined), ...(own as Record<string, string> | undefined) };
  const count = Object.keys(tags).length;
  if (count > TAGS_MAX) throw new ConfigError(`${where} has ${count} tags with the defaults'; a target has at most ${TAGS_MAX}`);
  return count === 0 ? undefined : tags;
}

/** The most tags a target has, the defaults' and its own together; the schema bounds each side alike. */
export const TAGS_MAX = 16;

/**
 * The targets of a fleet file, from its content as read, each as a target file would give it and its tokens
 * read by `read` (token-variables.ts); undefined when the content is a target file's (it has no `targets` list).
 */
export function fleetEntries(content: unknown, file: string, read: TokenReader): TargetEntry[] | undefined {
  if (!isFleet(content)) return undefined;
  checkFleet(content, file);
  const { tags: shared, ...given } = content.defaults ?? {};
  const defaults = withTokens(given, `the fleet file ${file}: defaults`, read);
  return content.targets.map((target, i) => {
    const where = `the fleet file ${file}, target ${i + 1}`;
    const { tags: own, ...settings } = target as Record<string, unknown>;
    const source = targetSource({ ...defaults, ...withTokens(settings, where, read) }, path.dirname(file), where);
    const tags = tagsOf(shared, own, where);
    return { alone: true, file: { where, name: where, source }, ...(tags && { tags }) };
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
  if (!isFleet(value) || !Array.isArray(value.targets)) throw new ConfigError(`${file} is not a fleet file: it has no targets list`);
  for (const [i, target] of value.targets.entries())
    if (target === null || typeof target !== 'object' || !('name' in target) || typeof target.name !== 'string')
      throw new ConfigError(`the fleet file ${file}, target ${i + 1} has no name`);
  checkFleet(value, file);
  const fallback = versionOf(value.defaults?.product);
  const versions = new Map<string, string>();
  for (const target of value.targets as { name: string; product?: unknown }[]) {
    const version = versionOf(target.product) ?? fallback;
    if (version !== undefined) versions.set(target.name, version);
  }
  return versions;
}
