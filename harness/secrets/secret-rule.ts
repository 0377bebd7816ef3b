import { ConfigError } from '../files/config-error.ts';

/** A target's secrets as its configuration gives them: the admin token, the forbidden tokens, the signup-token secrets. */
export interface SecretSource {
  adminToken: string;
  /** Each with the name of its credential and the placeholder that stands for it in every report. */
  forbidden: { credential: string; placeholder: string; token: string }[];
  signupTokens: string[];
  /** The proxies requests go through (HTTP_PROXY, HTTPS_PROXY): a user and password in their URLs are secrets too. */
  network?: { proxy: { http?: string; https?: string } };
  /** Every target of a run of several, whose tokens this one's reports hide too (redact.ts): one list for the run. */
  others?: readonly SecretSource[];
}

/** The credentials of the proxies, each as the variable that gives it and the user:password it carries (decoded). */
export function proxySecrets(source: SecretSource): { setting: string; credentials: string }[] {
  const proxies: [string, string | undefined][] = [
    ['HTTP_PROXY', source.network?.proxy.http],
    ['HTTPS_PROXY', source.network?.proxy.https],
  ];
  return proxies.flatMap(([setting, raw]) => {
    if (!raw) return [];
    try {
      const url = new URL(raw);
      if (!url.username && !url.password) return [];
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      return [{ setting, credentials }];
    } catch {
      return [];
    }
  });
}

// The rule a secret must meet for the redactor to find it without also finding it in ordinary text.

/**
 * A token shorter than this, or of fewer different characters, would be found inside ordinary words,
 * keys, paths and numbers of the reports ("admin", "true", ":", "aaaaaaaa"); a prefix of a secret this
 * long at the edge of a text is taken for the secret.
 */
export const MIN_SECRET_CHARS = 8;
export const MIN_DISTINCT_CHARS = 4;

/**
 * The reports escape what they write: JSON and Markdown with a backslash, HTML and XML with "&". A token
 * holding either could be spelt out by that escaping from a text that did not hold it (a target that
 * sends `a"b` where the token is `a\"b`), after the redactor has looked.
 */
const ESCAPE_STARTS = /[\\&]/;

/** The rule, in words, for configuration errors and the README. */
export const SECRET_RULE = `a token needs at least ${MIN_SECRET_CHARS} characters, at least ${MIN_DISTINCT_CHARS} of them different, and no \\ or &`;

/** Why a token cannot be hidden safely in the reports, or undefined when it can. Never quotes the token. */
export function unsafeToRedact(token: string): string | undefined {
  const chars = [...token];
  if (chars.length < MIN_SECRET_CHARS) return `it has fewer than ${MIN_SECRET_CHARS} characters`;
  if (new Set(chars).size < MIN_DISTINCT_CHARS) return `it has fewer than ${MIN_DISTINCT_CHARS} different characters`;
  if (ESCAPE_STARTS.test(token)) return "it holds a \\ or &, which the reports' own escaping could spell out";
  return undefined;
}

/** One secret of a target: the setting (and entry of a list) that gives it, and the placeholder that stands for it. */
export interface NamedSecret {
  setting: string;
  placeholder: string;
  token: string;
}

/** The setting (and entry of a list) that gives each secret of a target, as a user would look for it, and its placeholder. */
export function namedSecrets(target: SecretSource): NamedSecret[] {
  const named: NamedSecret[] = [{ setting: 'CONFORMANCE_ADMIN_TOKEN', placeholder: '$TOKEN', token: target.adminToken }];
  // A forbidden credential's placeholder is its variable's name, with the entry's number after the first.
  const variableOf = (placeholder: string) => `CONFORMANCE_${placeholder.slice(1).replace(/_\d+$/, '')}`;
  for (const f of target.forbidden) {
    const variable = variableOf(f.placeholder);
    const entries = target.forbidden.filter((o) => variableOf(o.placeholder) === variable);
    named.push({ setting: entries.length > 1 ? `${variable} entry ${entries.indexOf(f) + 1}` : variable, placeholder: f.placeholder, token: f.token });
  }
  const signup = target.signupTokens;
  signup.forEach((token, i) =>
    named.push({
      setting: signup.length > 1 ? `CONFORMANCE_SIGNUP_TOKENS entry ${i + 1}` : 'CONFORMANCE_SIGNUP_TOKENS',
      placeholder: `$SIGNUP_TOKEN_${i + 1}`,
      token,
    }),
  );
  return named;
}

/** Refuses, before any request, a secret the reports could not hide safely; the line names where it was given, never the secret. */
export function checkRedactable(target: SecretSource): void {
  const proxies = proxySecrets(target).map(({ setting, credentials }) => ({ setting: `the user and password in ${setting}`, token: credentials }));
  for (const { setting: name, token } of [...namedSecrets(target), ...proxies]) {
    const reason = unsafeToRedact(token);
    if (reason !== undefined) throw new ConfigError(`${name} cannot be hidden safely in the reports: ${reason} (${SECRET_RULE})`);
  }
}
