import type { KeyObject } from 'node:crypto';
import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import { targetVariables, type Source } from './sources.ts';
import { deviationsOf, type KnownDeviation } from './deviations.ts';
import { productOf, type Product } from './product.ts';
import { checkRedactable, namedSecrets, type SecretSource } from '../secrets/secret-rule.ts';
import type { SigningKind } from '../secrets/signing-key.ts';
import { documentText } from '../contracts/document.ts';
import { overlap } from '../files/folders.ts';
import type { NetworkSettings } from '../transport/network.ts';
import { ciMarker, ciRunUrl } from './ci.ts';
import { closest } from '../files/closest.ts';
import { loadProfiles } from '../contracts/profiles.ts';
import { parseNetwork } from './network-settings.ts';
import { readSettings, type Settings } from './settings.ts';
import { signingOf } from './signing.ts';
import { settingName, sourceOf, type TargetEntry } from './target-file.ts';

/** Everything the suite needs to know about the deployment it checks. */
export interface TargetConfig {
  name: string;
  baseUrl: string;
  /** True when the run checks the embedded reference implementation. */
  embedded: boolean;
  adminToken: string;
  /** Valid tokens that lack a permission, each with the operations that must refuse it (403). */
  forbidden: ForbiddenCredential[];
  signupTokens: string[];
  timeoutMs: number;
  /** The bound on the whole run (CONFORMANCE_RUN_TIMEOUT_MS), so that a stalling target cannot hold a CI job. */
  runTimeoutMs: number;
  maxBodyBytes: number;
  /** How many times the request plan is sent (CONFORMANCE_REPEAT); the first round is the one judged. */
  repeat: number;
  /** How many requests are in flight at once (CONFORMANCE_CONCURRENCY). */
  concurrency: number;
  reportDir: string;
  /** Known deviations of this target: failures of these clauses are reported, not gated on. */
  deviations: KnownDeviation[];
  /** Settings of `.env` that a more explicit source overrides, to be shown once at the start of the run. */
  notices: string[];
  /** How requests reach the target: proxies, a private certificate authority, a client certificate. */
  network: NetworkSettings;
  /** The product under test as the vendor states it, when it does. */
  product?: Product;
  /** A folder to write the evidence bundle to, instead of evidence.tar.gz beside the reports (CONFORMANCE_EVIDENCE_DIR). */
  evidenceDir?: string;
  /** Where the target publishes its OpenAPI description, to be fetched and compared with the document (CONFORMANCE_OPENAPI_PATH). */
  openapiPath?: string;
  /** The profiles the run claims (CONFORMANCE_CLAIM, contracts/profiles.yaml); undefined claims every one. */
  claim?: string[];
  /** Set when the run judges an evidence bundle's exchanges instead of asking the target: the bundle as given, and its path. */
  replay?: { bundle: string; file: string };
  /** The key a run with a verdict signs its bundle's attestation with (CONFORMANCE_SIGNING_KEY): a secret, never written. */
  signing?: { key: KeyObject; kind: SigningKind; file: string };
  /** The CI run's page, when the CI service names it: an attestation's url. */
  runUrl?: string;
}

export { ConfigError };

export type Operation = 'signup-token' | 'projects';

/** A valid token that lacks the permission for some operations; its placeholder stands for it in every report. */
export interface ForbiddenCredential {
  /** How requests made with it are named in the request log and evidence, e.g. "forbidden-signup". */
  credential: string;
  /** What stands for the token in reports and curl lines, e.g. "$FORBIDDEN_TOKEN_SIGNUP". */
  placeholder: string;
  token: string;
  operations: Operation[];
}

/** The three variables of forbidden credentials, with the operations each one's tokens must be refused. */
const FORBIDDEN_VARIABLES: [variable: string, suffix: string, operations: Operation[]][] = [
  ['CONFORMANCE_FORBIDDEN_TOKEN', '', ['signup-token', 'projects']],
  ['CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP', '-signup', ['signup-token']],
  ['CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS', '-projects', ['projects']],
];

/** Whether a message may quote a base URL: not when it may hold credentials (user:password@) or a query, where a token may be. */
const quotable = (raw: string) => !/[@?#]/.test(raw);

function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`CONFORMANCE_BASE_URL is not an absolute URL${quotable(raw) ? `: "${raw}"` : ''} (expected e.g. https://unleash.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`CONFORMANCE_BASE_URL must start with http:// or https://${quotable(raw) ? `; it starts with "${url.protocol}"` : ''}`);
  if (url.username || url.password) throw new ConfigError('CONFORMANCE_BASE_URL must not carry credentials; give the token in CONFORMANCE_ADMIN_TOKEN');
  if (url.search || url.hash) throw new ConfigError('CONFORMANCE_BASE_URL must not have a query or fragment: give the part before /api/admin');
  // The URL parser keeps an explicit port 0, where no server can listen: the run could only fail on every request.
  if (url.port === '0') throw new ConfigError('CONFORMANCE_BASE_URL has port 0, where no server listens: give the port the deployment serves on');
  if (/\/api\/admin\/?$/.test(url.pathname)) throw new ConfigError('CONFORMANCE_BASE_URL must be the part before /api/admin, without /api/admin itself');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/**
 * A secret that is a word of the document (`projects`, `Authentication`) is spelt by the target's answers too:
 * hidden in them, the evidence would no longer judge as it did. Refused in one line that does not quote it.
 */
function checkNotWordsOfTheApi(target: SecretSource): void {
  const words = documentText().toLowerCase();
  const named = namedSecrets(target).find(({ token }) => words.includes(token.toLowerCase()));
  if (named)
    throw new ConfigError(
      `${named.setting} is a word of the document, which the target's answers spell too, so the reports could not hide it without changing them; give the token as the deployment issued it`,
    );
}

/** The longest token the reports can hide in every spelling within a run's bounds. */
const MAX_TOKEN_CHARS = 64 * 1024;

function parseToken(variable: string, raw: string): string {
  if (/[\s]/.test(raw)) throw new ConfigError(`${variable} contains white space or a line break; give the token alone`);
  if (raw.length > MAX_TOKEN_CHARS)
    throw new ConfigError(`${variable} is longer than 64 KiB (${raw.length} characters); give the token as the deployment issued it`);
  // An HTTP header carries visible ASCII only; the token itself is never quoted, only where it breaks.
  const unfit = [...raw].findIndex((c) => c < '!' || c > '~');
  if (unfit >= 0)
    throw new ConfigError(`${variable} holds a character an HTTP header cannot carry, at position ${unfit + 1}; give the token as the deployment issued it`);
  return raw;
}

/** Every forbidden credential of the three variables, each comma-separated list in its order. */
function parseForbidden(source: Source): ForbiddenCredential[] {
  return FORBIDDEN_VARIABLES.flatMap(([variable, suffix, operations]) => {
    const raw = source[variable];
    if (raw === undefined) return [];
    const tokens = raw.split(',').map((t) => t.trim());
    if (tokens.some((t) => t === '')) throw new ConfigError(`${variable} has an empty entry: remove the stray comma`);
    return tokens.map((token, i) => {
      const n = i === 0 ? '' : `-${i + 1}`;
      const credential = `forbidden${suffix}${n}`;
      return {
        credential,
        placeholder: `$FORBIDDEN_TOKEN${suffix.toUpperCase().replace(/-/g, '_')}${n.replace('-', '_')}`,
        token: parseToken(variable, token),
        operations,
      };
    });
  });
}

function parseSignupTokens(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const entries = raw.split(',').map((s) => s.trim());
  const blank = entries.indexOf('');
  if (blank >= 0) throw new ConfigError(`CONFORMANCE_SIGNUP_TOKENS has an empty entry at position ${blank + 1}: remove the stray comma or blank list item`);
  for (const entry of entries)
    if (/[\s/?#]/.test(entry)) throw new ConfigError('CONFORMANCE_SIGNUP_TOKENS entries must be bare secrets, without spaces, "/", "?" or "#"');
  return [...new Set(entries)];
}

function parsePositiveInt(variable: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) throw new ConfigError(`${variable} must be a positive whole number, not "${raw}"`);
  if (Number(raw) > max) throw new ConfigError(`${variable} must be at most ${max}, not ${raw}`);
  return Number(raw);
}

/** Bounds of the numeric settings: a timer holds at most 2^31 - 1 ms (a longer one fires at once), and a run stays a run. */
const LIMITS = {
  timeoutMs: 2 ** 31 - 1,
  repeat: 1_000,
  concurrency: 64,
  maxBodyBytes: 2 ** 31 - 1,
};

/** A yes/no setting: true, false, or not given. */
function parseSwitch(variable: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${variable} must be true or false, not "${raw}"`);
}

/** A path below the base URL, never another address: the description is the target's own. */
function parseOpenapiPath(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\/[^\s#]*$/.test(raw) || raw.startsWith('//'))
    throw new ConfigError(`CONFORMANCE_OPENAPI_PATH must be a path below the base URL starting with /, such as /docs/openapi.json, not "${raw}"`);
  return raw;
}

/** A profile's name as the catalogue writes them: an entry unlike one is not quoted, as it may be a token pasted in the wrong place. */
const PROFILE_NAME = /^[a-z][a-z0-9-]{0,40}$/;

/** The profiles a run claims (CONFORMANCE_CLAIM), each known, in the catalogue's order; undefined claims every profile. */
function parseClaim(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const known = loadProfiles().map((p) => p.name);
  const names = raw.split(',').map((n) => n.trim());
  if (names.some((n) => n === ''))
    throw new ConfigError(`CONFORMANCE_CLAIM has an empty entry: name the profiles it claims, comma-separated (${known.join(', ')})`);
  for (const name of names.filter((n) => !known.includes(n))) {
    const meant = PROFILE_NAME.test(name) ? closest(name, known) : undefined;
    const what = PROFILE_NAME.test(name) ? `"${name}"` : 'an entry (not shown, as it may be a secret)';
    throw new ConfigError(
      `CONFORMANCE_CLAIM names ${what}, which is no profile${meant ? `; did you mean "${meant}"?` : ''} (the profiles: ${known.join(', ')})`,
    );
  }
  return known.filter((k) => names.includes(k));
}

export const EMBEDDED_NAME = 'embedded reference target';

/** Whether this is the installed command (the npm package runs its build, dist/), not a clone of the suite. */
const INSTALLED = path.basename(path.resolve(__dirname, '..', '..')) === 'dist';

/**
 * The embedded reference target runs only when nothing names a target, and is the demo of a clone of the
 * suite: the installed command, and a run under CI, check it only when asked for (CONFORMANCE_EMBEDDED=true),
 * so that a job, a cron job or a hand-run whose configuration is missing never passes on it as though a
 * deployment did. Global setup starts it, and it announces its address and tokens then.
 */
function embeddedTarget(source: Source, env: Source): Pick<TargetConfig, 'name' | 'baseUrl' | 'adminToken' | 'forbidden' | 'signupTokens'> {
  const asked = parseSwitch('CONFORMANCE_EMBEDDED', source.CONFORMANCE_EMBEDDED);
  if (asked === false)
    throw new ConfigError('no target: set CONFORMANCE_BASE_URL (or CONFORMANCE_TARGET), or allow the embedded reference target (CONFORMANCE_EMBEDDED)');
  if (INSTALLED && asked !== true)
    throw new ConfigError(
      'no target: set CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN (or CONFORMANCE_TARGET); the embedded reference target, a demo, runs only with CONFORMANCE_EMBEDDED=true',
    );
  const ci = ciMarker(env);
  if (ci !== undefined && asked !== true)
    throw new ConfigError(
      `no target under CI (${ci} is set): set CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN (or CONFORMANCE_TARGET), or CONFORMANCE_EMBEDDED=true to check the embedded reference target`,
    );
  return { name: EMBEDDED_NAME, baseUrl: '', adminToken: '', forbidden: [], signupTokens: [] };
}

/** Nothing is guessed: a target setting without a base URL, or the embedded target asked for beside one, is a mistake. */
function checkTargetSettings(source: Source): void {
  const given = targetVariables().filter((name) => source[name] !== undefined);
  if (given.length === 0) return;
  if (parseSwitch('CONFORMANCE_EMBEDDED', source.CONFORMANCE_EMBEDDED) === true)
    throw new ConfigError(`CONFORMANCE_EMBEDDED=true, yet ${given[0]} names a target: unset one of them`);
  if (source.CONFORMANCE_BASE_URL === undefined)
    throw new ConfigError(
      `${given[0]} is set but CONFORMANCE_BASE_URL is not: give the deployment's base URL, or unset ${given.join(', ')} to check the embedded reference target`,
    );
}

function configuredTarget(source: Source, baseUrlRaw: string) {
  const baseUrl = parseBaseUrl(baseUrlRaw);
  if (!source.CONFORMANCE_ADMIN_TOKEN) throw new ConfigError('CONFORMANCE_ADMIN_TOKEN is required when CONFORMANCE_BASE_URL is set');
  return {
    name: source.CONFORMANCE_TARGET_NAME ?? new URL(baseUrl).host,
    baseUrl,
    adminToken: parseToken('CONFORMANCE_ADMIN_TOKEN', source.CONFORMANCE_ADMIN_TOKEN),
    forbidden: parseForbidden(source),
    signupTokens: parseSignupTokens(source.CONFORMANCE_SIGNUP_TOKENS),
  };
}

/** The embedded target's configuration once it has announced where it listens and which tokens fit it. */
export function withEmbedded(
  config: TargetConfig,
  announced: { baseUrl: string; adminToken: string; forbiddenTokens: string[]; forbiddenTokensSignup: string[]; signupTokens: string[]; openapiPath?: string },
): TargetConfig {
  const forbidden = forbiddenCredentials(announced.forbiddenTokens, announced.forbiddenTokensSignup, []);
  return {
    ...config,
    baseUrl: announced.baseUrl,
    adminToken: announced.adminToken,
    forbidden,
    signupTokens: announced.signupTokens,
    openapiPath: announced.openapiPath,
  };
}

/** Forbidden credentials from lists of tokens: refused by both operations, by the signup-token one only, by the projects one only. */
export function forbiddenCredentials(both: string[], signup: string[], projects: string[]): ForbiddenCredential[] {
  const list = (tokens: string[]) => (tokens.length > 0 ? tokens.join(',') : undefined);
  return parseForbidden({
    CONFORMANCE_FORBIDDEN_TOKEN: list(both),
    CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP: list(signup),
    CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS: list(projects),
  });
}

// A folder named by spaces alone is a mistake (a quoted blank), not a place to clear and write reports in.
const FOLDER_VARIABLES = ['CONFORMANCE_REPORT_DIR', 'CONFORMANCE_EVIDENCE_DIR'] as const;

/**
 * One target's configuration, checked whole: a pure function of the run's settings, read once (settings.ts), and
 * of the entry that describes the target; nothing is read here. Throws ConfigError before any request is sent.
 */
export function targetConfig(settings: Settings, entry: TargetEntry): TargetConfig {
  const { env, cwd, files } = settings;
  const { source, notices } = sourceOf(settings.variables, entry);
  checkTargetSettings(source);
  const embedded = source.CONFORMANCE_BASE_URL === undefined;
  const target = embedded ? embeddedTarget(source, env) : configuredTarget(source, source.CONFORMANCE_BASE_URL!);
  const product = productOf(source);
  if (product && 'error' in product) throw new ConfigError(product.error);
  const network = parseNetwork(source, env, cwd, files);
  if (!embedded) checkRedactable({ ...target, network });
  if (!embedded) checkNotWordsOfTheApi(target);
  checkDistinctSecrets(source);
  for (const variable of FOLDER_VARIABLES)
    if (source[variable] !== undefined && source[variable].trim() === '')
      throw new ConfigError(`${variable} holds only spaces: give a folder, or unset it for the default`);
  const reportDir = path.resolve(cwd, source.CONFORMANCE_REPORT_DIR ?? 'conformance-report');
  const evidenceDir = source.CONFORMANCE_EVIDENCE_DIR ? path.resolve(cwd, source.CONFORMANCE_EVIDENCE_DIR) : undefined;
  if (evidenceDir && overlap(evidenceDir, reportDir))
    throw new ConfigError(
      `CONFORMANCE_EVIDENCE_DIR ${evidenceDir} and CONFORMANCE_REPORT_DIR ${reportDir} overlap: the evidence folder holds the bundle alone, and a run clears its report folder; give two separate folders`,
    );
  return {
    ...target,
    embedded,
    timeoutMs: parsePositiveInt('CONFORMANCE_TIMEOUT_MS', source.CONFORMANCE_TIMEOUT_MS, 30_000, LIMITS.timeoutMs),
    runTimeoutMs: parsePositiveInt('CONFORMANCE_RUN_TIMEOUT_MS', source.CONFORMANCE_RUN_TIMEOUT_MS, 10 * 60_000, LIMITS.timeoutMs),
    maxBodyBytes: parsePositiveInt('CONFORMANCE_MAX_BODY_BYTES', source.CONFORMANCE_MAX_BODY_BYTES, 256 * 1024 * 1024, LIMITS.maxBodyBytes),
    repeat: parsePositiveInt('CONFORMANCE_REPEAT', source.CONFORMANCE_REPEAT, 1, LIMITS.repeat),
    concurrency: parsePositiveInt('CONFORMANCE_CONCURRENCY', source.CONFORMANCE_CONCURRENCY, 4, LIMITS.concurrency),
    reportDir,
    deviations: deviationsOf(source, cwd, files),
    notices,
    network,
    product,
    openapiPath: parseOpenapiPath(source.CONFORMANCE_OPENAPI_PATH),
    evidenceDir,
    claim: parseClaim(source.CONFORMANCE_CLAIM),
    signing: signingOf(source, cwd, settings.signingKeys),
    runUrl: ciRunUrl(env),
  };
}

/** The configuration of the first target the environment and `.env` in `cwd` describe, read as a run reads them. */
export function loadConfig(env: Source = process.env, cwd: string = process.cwd()): TargetConfig {
  const settings = readSettings(env, cwd);
  return targetConfig(settings, settings.entries[0]);
}

/**
 * Each secret is given once: a token given as two credentials would stand for two placeholders in the
 * reports, and the admin token among the forbidden or signup tokens can only be a slip. Repeated signup
 * tokens are one token, and are taken once.
 */
function checkDistinctSecrets(source: Source): void {
  const seen = new Map<string, string>();
  const lists: [variable: string, tokens: string[]][] = [
    ['CONFORMANCE_ADMIN_TOKEN', source.CONFORMANCE_ADMIN_TOKEN === undefined ? [] : [source.CONFORMANCE_ADMIN_TOKEN]],
    ...FORBIDDEN_VARIABLES.map(([variable]): [string, string[]] => [variable, source[variable]?.split(',').map((t) => t.trim()) ?? []]),
    ['CONFORMANCE_SIGNUP_TOKENS', [...new Set(source.CONFORMANCE_SIGNUP_TOKENS?.split(',').map((t) => t.trim()))]],
  ];
  for (const [variable, tokens] of lists)
    for (const [i, token] of tokens.entries()) {
      const where = `${settingName(variable)}${tokens.length > 1 ? ` entry ${i + 1}` : ''}`;
      const earlier = seen.get(token);
      if (earlier !== undefined) throw new ConfigError(`${where} is the same token as ${earlier}; give each token once`);
      seen.set(token, where);
    }
}
