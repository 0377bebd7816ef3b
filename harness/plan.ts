import { randomBytes } from 'node:crypto';
import type { TargetConfig } from './config.ts';
import type { Credential, ExchangeRequest } from './exchange.ts';

export const TOKEN_PATH = '/api/admin/invite-link/tokens/';
export const PROJECTS_PATH = '/api/admin/projects';

/** Values made up for one run: a token no deployment issued, and a secret no signup token has. */
export interface RunSecrets {
  invalidToken: string;
  unknownSecret: string;
}

export function makeRunSecrets(): RunSecrets {
  return {
    invalidToken: `conformance-invalid-${randomBytes(12).toString('hex')}`,
    unknownSecret: `conformance-unknown-${randomBytes(12).toString('hex')}`,
  };
}

export const tokenPath = (secret: string) => TOKEN_PATH + encodeURIComponent(secret);

/** The token path the authentication checks use: a configured secret, so the answer can only be about authentication. */
export function authTokenPath(config: TargetConfig, run: RunSecrets): string {
  return tokenPath(config.signupTokens[0] ?? run.unknownSecret);
}

const get = (path: string, credential: Credential): ExchangeRequest => ({ method: 'GET', path, credential });

/** Every request of a run, fixed before the first is sent: GET only, to the two documented paths. */
export function requestPlan(config: TargetConfig, run: RunSecrets): ExchangeRequest[] {
  const authCredentials: Credential[] = ['none', 'invalid', ...(config.forbiddenToken ? (['forbidden'] as const) : [])];
  return [
    ...config.signupTokens.map((secret) => get(tokenPath(secret), 'admin')),
    get(tokenPath(run.unknownSecret), 'admin'),
    get(PROJECTS_PATH, 'admin'),
    get(`${PROJECTS_PATH}?archived=true`, 'admin'),
    get(`${PROJECTS_PATH}?archived=false`, 'admin'),
    ...authCredentials.flatMap((c) => [get(authTokenPath(config, run), c), get(PROJECTS_PATH, c)]),
  ];
}
