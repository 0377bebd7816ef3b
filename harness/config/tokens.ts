import { documentText } from '../contracts/document.ts';
import { ConfigError } from '../files/config-error.ts';
import { namedSecrets, type SecretSource } from '../secrets/secret-rule.ts';
import type { Source } from './sources.ts';
import { settingName } from './target-file.ts';

// A target's tokens: the admin token, the signup tokens, and the forbidden credentials (valid tokens that lack a
// permission); each checked as a header can carry it and the reports can hide it, and each given once.

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

/** The longest token the reports can hide in every spelling within a run's bounds. */
const MAX_TOKEN_CHARS = 64 * 1024;

export function parseToken(variable: string, raw: string): string {
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
export function parseForbidden(source: Source): ForbiddenCredential[] {
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

/** Forbidden credentials from lists of tokens: refused by both operations, by the signup-token one only, by the projects one only. */
export function forbiddenCredentials(both: string[], signup: string[], projects: string[]): ForbiddenCredential[] {
  const list = (tokens: string[]) => (tokens.length > 0 ? tokens.join(',') : undefined);
  return parseForbidden({
    CONFORMANCE_FORBIDDEN_TOKEN: list(both),
    CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP: list(signup),
    CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS: list(projects),
  });
}

export function parseSignupTokens(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const entries = raw.split(',').map((s) => s.trim());
  const blank = entries.indexOf('');
  if (blank >= 0) throw new ConfigError(`CONFORMANCE_SIGNUP_TOKENS has an empty entry at position ${blank + 1}: remove the stray comma or blank list item`);
  for (const entry of entries)
    if (/[\s/?#]/.test(entry)) throw new ConfigError('CONFORMANCE_SIGNUP_TOKENS entries must be bare secrets, without spaces, "/", "?" or "#"');
  return [...new Set(entries)];
}

/**
 * A secret that is a word of the document (`projects`, `Authentication`) is spelt by the target's answers too:
 * hidden in them, the evidence would no longer judge as it did. Refused in one line that does not quote it.
 */
export function checkNotWordsOfTheApi(target: SecretSource): void {
  const words = documentText().toLowerCase();
  const named = namedSecrets(target).find(({ token }) => words.includes(token.toLowerCase()));
  if (named)
    throw new ConfigError(
      `${named.setting} is a word of the document, which the target's answers spell too, so the reports could not hide it without changing them; give the token as the deployment issued it`,
    );
}

/**
 * Each secret is given once: a token given as two credentials would stand for two placeholders in the
 * reports, and the admin token among the forbidden or signup tokens can only be a slip. Repeated signup
 * tokens are one token, and are taken once.
 */
export function checkDistinctSecrets(source: Source): void {
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
