import type { TargetConfig } from './config.ts';

export type Redactor = (text: string) => string;

/** The markers that stand in for secrets; curl lines use them as shell variables. */
export function secretMarkers(config: Pick<TargetConfig, 'adminToken' | 'forbiddenToken' | 'signupTokens'>): [string, string][] {
  const pairs: [string, string][] = [[config.adminToken, '$TOKEN']];
  if (config.forbiddenToken) pairs.push([config.forbiddenToken, '$FORBIDDEN_TOKEN']);
  config.signupTokens.forEach((secret, i) => pairs.push([secret, `$SIGNUP_TOKEN_${i + 1}`]));
  // Longest first, so a secret that contains another is replaced whole.
  return pairs.filter(([secret]) => secret.length > 0).sort((a, b) => b[0].length - a[0].length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Replaces every secret, also where it appears percent-encoded, with its marker. */
export function createRedactor(config: Pick<TargetConfig, 'adminToken' | 'forbiddenToken' | 'signupTokens'>): Redactor {
  const pairs = secretMarkers(config).flatMap(([secret, marker]) => {
    const encoded = encodeURIComponent(secret);
    return encoded === secret ? [[secret, marker]] : [[secret, marker], [encoded, marker]];
  });
  if (pairs.length === 0) return (text) => text;
  const markerOf = new Map(pairs.map(([s, m]) => [s, m]));
  const pattern = new RegExp(pairs.map(([s]) => escapeRegExp(s)).join('|'), 'g');
  return (text) => text.replace(pattern, (found) => markerOf.get(found) ?? found);
}
