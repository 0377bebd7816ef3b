import type { TargetConfig } from './config.ts';

export type Redactor = (text: string) => string;

/** Everything that names the secrets of one target: what stands for each, and how to take them out of text. */
export interface Secrets {
  redact: Redactor;
  /** What stands for a credential's token in a curl line: "$TOKEN", "$FORBIDDEN_TOKEN_SIGNUP", ... */
  placeholderOf(credential: string): string | undefined;
}

type SecretSource = Pick<TargetConfig, 'adminToken' | 'forbidden' | 'signupTokens'>;

/** The markers that stand in for secrets; curl lines use them as shell variables. */
export function secretMarkers(config: SecretSource): [string, string][] {
  const pairs: [string, string][] = [[config.adminToken, '$TOKEN']];
  for (const f of config.forbidden) pairs.push([f.token, f.placeholder]);
  config.signupTokens.forEach((secret, i) => pairs.push([secret, `$SIGNUP_TOKEN_${i + 1}`]));
  // Longest first, so a secret that contains another is replaced whole.
  return pairs.filter(([secret]) => secret.length > 0).sort((a, b) => b[0].length - a[0].length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces every secret, also where it appears percent-encoded, with its marker. */
export function createRedactor(config: SecretSource): Redactor {
  const pairs = secretMarkers(config).flatMap(([secret, marker]) => {
    const encoded = encodeURIComponent(secret);
    return encoded === secret ? [[secret, marker]] : [[secret, marker], [encoded, marker]];
  });
  if (pairs.length === 0) return (text) => text;
  const markerOf = new Map(pairs.map(([s, m]) => [s, m]));
  const pattern = new RegExp(pairs.map(([s]) => escapeRegExp(s)).join('|'), 'g');
  return (text) => text.replace(pattern, (found) => markerOf.get(found) ?? found);
}

/** A value with every string in it, keys included, redacted: secrets are values, never searched in serialised text. */
export function redactValue<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactValue(v, redact)])) as T;
}

export function createSecrets(config: SecretSource): Secrets {
  const placeholders = new Map<string, string>([['admin', '$TOKEN']]);
  for (const f of config.forbidden) placeholders.set(f.credential, f.placeholder);
  return { redact: createRedactor(config), placeholderOf: (credential) => placeholders.get(credential) };
}
