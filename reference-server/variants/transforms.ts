import { REFERENCE_FIXTURES } from '../fixtures.ts';
import { respond, type ReferenceRequest, type ReferenceResponse } from '../respond.ts';
import type { Variant } from '../server.ts';

/** A server that breaks the document in one way; the suite must report exactly the clauses in `breaks` failed. */
export interface Fault extends Variant {
  breaks: string[];
  /** Clauses left errored because the broken answer cannot be read, so they cannot be judged. */
  errors?: string[];
}

/** A server that differs from the reference yet conforms; the suite must pass it. */
export interface ValidVariant extends Variant {
  /** MUST clauses it leaves not exercised because it sends nothing of that kind. */
  notExercised?: string[];
}

export type Transform = Variant['transform'];
export type Json = Record<string, any>;
export type Operation = 'signup-token' | 'projects';
export type Credential = 'admin' | 'forbidden' | 'viewer' | 'invalid' | 'none';

const TOKEN_PATH = '/api/admin/invite-link/tokens/';

export function operationOf(request: ReferenceRequest): Operation | undefined {
  if (request.path.startsWith(TOKEN_PATH)) return 'signup-token';
  return request.path === '/api/admin/projects' ? 'projects' : undefined;
}

export function credentialOf(request: ReferenceRequest): Credential {
  if (request.authorization === undefined) return 'none';
  if (request.authorization === REFERENCE_FIXTURES.adminToken) return 'admin';
  if (request.authorization === REFERENCE_FIXTURES.viewerToken) return 'viewer';
  return request.authorization === REFERENCE_FIXTURES.forbiddenToken ? 'forbidden' : 'invalid';
}

/** Which answers a change applies to; an absent key matches everything. */
export interface Match {
  operation?: Operation;
  credential?: Credential;
  status?: number;
  /** The values of the archived query parameter matched, null for a request without it. */
  archived?: (string | null)[];
}

function matches(match: Match, request: ReferenceRequest, response: ReferenceResponse): boolean {
  return (
    (match.operation === undefined || match.operation === operationOf(request)) &&
    (match.credential === undefined || match.credential === credentialOf(request)) &&
    (match.status === undefined || match.status === response.status) &&
    (match.archived === undefined || match.archived.includes(request.query.get('archived')))
  );
}

/** Serves the faithful answer, changed where `match` holds. */
export function rewrite(match: Match, change: (response: ReferenceResponse, request: ReferenceRequest) => ReferenceResponse): Transform {
  return (request, faithful) => {
    const response = faithful();
    return matches(match, request, response) ? change(response, request) : response;
  };
}

/** Applies several transforms in turn, each to the answer of the one before. */
export function compose(...transforms: Transform[]): Transform {
  return (request, faithful) => transforms.reduce<() => ReferenceResponse>((answer, t) => () => t(request, answer), faithful)();
}

/** A change made in place; what it returns is ignored, so that `(t) => delete t.name` reads as it does. */
export type Change = (object: Json) => unknown;

// The seed shares objects between requests (the viewer role), so a change works on a copy.
const copyOf = (response: ReferenceResponse) => structuredClone(response.body) as Json;

/** Replaces the body of every 200 answer of an operation by what `map` makes of (a copy of) it. */
export const mapBody = (operation: Operation, map: (body: Json) => unknown, only: Match = {}) =>
  rewrite({ ...only, operation, status: 200 }, (response) => ({ ...response, body: map(copyOf(response)) }));

const changed = (change: Change) => (body: Json) => (change(body), body);

/** Changes the body of every 200 answer to a token request (the admin token's, as the suite sends it). */
const token = (change: Change) => mapBody('signup-token', changed(change));

/** Only the list asked for without the archived parameter, so that a fault leaves projects.archived.accepted alone. */
export const PLAIN_LIST: Match = { archived: [null] };

/** Changes the body of every 200 answer to a projects request, or of those `only` selects. */
const projects = (change: Change, only: Match = {}) => mapBody('projects', changed(change), only);
const eachProject = (change: (project: Json, index: number) => unknown, only: Match = {}) => projects((l) => l.projects.forEach(change), only);

/**
 * Changes made in place to (a copy of) one part of the answers, named by that part: the token, its users or role,
 * the projects list, each project or each owner of 200 answers, the error object of 401 or 403 answers.
 * `mutate.owners((o) => delete o.name)` deletes the name of every owner.
 */
export const mutate = {
  token,
  users: (change: Change) => token((t) => Array.isArray(t.users) && t.users.forEach(change)),
  role: (change: Change) => token((t) => change(t.role)),
  projects,
  eachProject,
  owners: (change: Change, only: Match = {}) => eachProject((p) => p.owners?.forEach(change), only),
  /** The body of every error answer with the given status, or of those `only` selects. */
  errors: (status: 401 | 403, change: Change, only: Match = {}) =>
    rewrite({ ...only, status }, (response) => ({ ...response, body: changed(change)(copyOf(response)) })),
};

export const withContentType =
  (contentType: string) =>
  (response: ReferenceResponse): ReferenceResponse => ({ ...response, headers: { ...response.headers, 'content-type': contentType } });

export const rawText = (status: number, contentType: string, text: string): ReferenceResponse => ({
  status,
  headers: { 'content-type': contentType },
  body: text,
  raw: true,
});

/** The JSON text of the answer cut in half, as a connection that closes early would leave it. */
export function truncated(response: ReferenceResponse): ReferenceResponse {
  const text = JSON.stringify(response.body);
  return { ...response, body: text.slice(0, Math.floor(text.length / 2)), raw: true };
}

const TOKEN_OF: Record<Credential, string | undefined> = {
  admin: REFERENCE_FIXTURES.adminToken,
  forbidden: REFERENCE_FIXTURES.forbiddenToken,
  viewer: REFERENCE_FIXTURES.viewerToken,
  invalid: 'not-a-token-this-server-issued',
  none: undefined,
};

/** The faithful answer the request would get had it been sent with another credential. */
export const answerAs = (credential: Credential) => (_: ReferenceResponse, request: ReferenceRequest) =>
  respond({ ...request, authorization: TOKEN_OF[credential] });

/** The faithful answer to a token request for another configured secret than the one in the path. */
export function answerForAnotherSecret(_: ReferenceResponse, request: ReferenceRequest): ReferenceResponse {
  const secrets: readonly string[] = REFERENCE_FIXTURES.signupTokens;
  const asked = secrets.indexOf(decodeURIComponent(request.path.slice(TOKEN_PATH.length)));
  return respond({ ...request, path: TOKEN_PATH + secrets[(asked + 1) % secrets.length] });
}

// The reference writes every date-time with Date.toISOString().
const REFERENCE_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Rewrites every date-time string anywhere in a body. */
export function mapDateTimes(node: unknown, change: (dateTime: string) => string): any {
  if (typeof node === 'string') return REFERENCE_DATE_TIME.test(node) ? change(node) : node;
  if (Array.isArray(node)) return node.map((v) => mapDateTimes(v, change));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, mapDateTimes(v, change)]));
}

/** The same instant written with another offset from UTC, e.g. `withOffset(iso, 120)` for +02:00. */
export function withOffset(iso: string, offsetMinutes: number, fraction = iso.slice(20, 23)): string {
  const local = new Date(Date.parse(iso) + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local}${fraction ? `.${fraction}` : ''}${zone}`;
}
