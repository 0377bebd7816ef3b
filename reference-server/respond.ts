import { randomUUID } from 'node:crypto';
import { REFERENCE_FIXTURES } from './fixtures.ts';
import { buildSeed } from './seed.ts';
import { DESCRIPTION_PATH, referenceDescription } from './description.ts';

export interface ReferenceRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  /** The base URL the client used, for the token's signup link. */
  origin: string;
  now: number;
}

export interface ReferenceResponse {
  status: number;
  headers: Record<string, string>;
  /** A value to serialise as JSON, or raw text when `raw` is set. */
  body: unknown;
  raw?: boolean;
}

const TOKEN_PATH = /^\/api\/admin\/invite-link\/tokens\/([^/]+)$/;
const PROJECTS_PATH = '/api/admin/projects';

export function json(status: number, body: unknown): ReferenceResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body };
}

export function errorBody(name: string, message: string) {
  return { id: randomUUID(), name, message };
}

function unauthenticated(): ReferenceResponse {
  return json(401, errorBody('AuthenticationRequired', 'You must log in to use this API: the request had no valid authorization header.'));
}

function forbidden(permission: string): ReferenceResponse {
  return json(403, errorBody('NoAccessError', `You need the "${permission}" permission to perform this action`));
}

// Section 5: 401 for a missing or unknown token, 403 for a valid token without the permission. A viewer
// may list projects but not read signup tokens.
function authorize(request: ReferenceRequest, permission: 'ADMIN' | 'READ_PROJECTS'): ReferenceResponse | undefined {
  if (request.authorization === REFERENCE_FIXTURES.adminToken) return undefined;
  if (request.authorization === REFERENCE_FIXTURES.viewerToken) return permission === 'READ_PROJECTS' ? undefined : forbidden(permission);
  if (request.authorization === REFERENCE_FIXTURES.forbiddenToken) return forbidden(permission);
  return unauthenticated();
}

function getToken(request: ReferenceRequest, secret: string): ReferenceResponse {
  const denied = authorize(request, 'ADMIN');
  if (denied) return denied;
  const token = buildSeed(request.now, request.origin).tokens[decodeURIComponent(secret)];
  return token ? json(200, token) : json(404, errorBody('NotFoundError', 'No public signup token with that secret exists.'));
}

function listProjects(request: ReferenceRequest): ReferenceResponse {
  const denied = authorize(request, 'READ_PROJECTS');
  if (denied) return denied;
  const archived = request.query.get('archived');
  if (archived !== null && archived !== 'true' && archived !== 'false') {
    return json(400, errorBody('ValidationError', 'The query parameter "archived" must be true or false.'));
  }
  const seed = buildSeed(request.now);
  return json(200, { version: 1, projects: archived === 'true' ? seed.archivedProjects : seed.activeProjects });
}

/** The faithful behaviour of both operations, as a pure function of the request. */
export function respond(request: ReferenceRequest): ReferenceResponse {
  if (request.path === '/health') return json(200, { health: 'GOOD' });
  if (request.path === DESCRIPTION_PATH) return json(200, referenceDescription());
  const tokenMatch = TOKEN_PATH.exec(request.path);
  const known = tokenMatch !== null || request.path === PROJECTS_PATH;
  if (known && request.method !== 'GET') return json(405, errorBody('MethodNotAllowed', 'Only GET is served here.'));
  if (tokenMatch) return getToken(request, tokenMatch[1]);
  if (known) return listProjects(request);
  return json(404, errorBody('NotFoundError', 'No such path.'));
}
