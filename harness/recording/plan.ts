import { randomBytes } from 'node:crypto';
import type { ForbiddenCredential, Operation } from '../config/tokens.ts';
import type { Credential, ExchangeRequest } from '../transport/exchange.ts';

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
export function authTokenPath(signupTokens: string[], run: RunSecrets): string {
  return tokenPath(signupTokens[0] ?? run.unknownSecret);
}

/** The path each operation's authentication checks request. */
export function authPath(operation: Operation, signupTokens: string[], run: RunSecrets): string {
  return operation === 'projects' ? PROJECTS_PATH : authTokenPath(signupTokens, run);
}

const get = (path: string, credential: Credential): ExchangeRequest => ({ method: 'GET', path, credential });

const OPERATIONS: Operation[] = ['signup-token', 'projects'];

/** Every request of a run, fixed before the first is sent: GET only, to the two documented paths. */
export function requestPlan(
  config: { signupTokens: string[]; forbidden: Pick<ForbiddenCredential, 'credential' | 'operations'>[] },
  run: RunSecrets,
): ExchangeRequest[] {
  const path = (operation: Operation) => authPath(operation, config.signupTokens, run);
  return [
    ...config.signupTokens.map((secret) => get(tokenPath(secret), 'admin')),
    get(tokenPath(run.unknownSecret), 'admin'),
    get(PROJECTS_PATH, 'admin'),
    get(`${PROJECTS_PATH}?archived=true`, 'admin'),
    get(`${PROJECTS_PATH}?archived=false`, 'admin'),
    ...(['none', 'invalid'] as const).flatMap((c) => OPERATIONS.map((operation) => get(path(operation), c))),
    // Each forbidden credential is sent once to each operation that must refuse it.
    ...config.forbidden.flatMap((f) => f.operations.map((operation) => get(path(operation), f.credential))),
  ];
}

/**
 * The one request of a run beyond the two operations, sent only when asked (CONFORMANCE_OPENAPI_PATH): the
 * target's own OpenAPI description, fetched without a token, as a published description is public.
 */
export const descriptionRequest = (openapiPath: string): ExchangeRequest => get(openapiPath, 'none');

/**
 * The other request beyond the two operations, sent only when asked (CONFORMANCE_READ_PRODUCT_VERSION): where
 * the product says its own version, with the admin token, as the product's own console asks it. Its answer is
 * a fact about the product, recorded and never judged.
 */
export const versionRequest = (path: string): ExchangeRequest => get(path, 'admin');
