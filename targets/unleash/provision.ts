import { randomBytes } from 'node:crypto';
import { log, sleep } from './supervisor.ts';

/** The admin account every fresh Unleash has. */
export const ADMIN_USER = { username: 'admin', password: 'unleash4all' };

/**
 * What the suite needs from a provisioned Unleash, as far as its version gives it: a release without the
 * invite-link route (before 4.16) has no signup tokens, and so no signed-up users either.
 */
export interface Fixtures {
  /** Live, expired, live with signed-up users: the order of the target file; none where the version has no route for them. */
  signupTokens: string[];
  /** A personal access token of a user whose root role is Viewer. */
  viewerToken?: string;
  /** A signed-up user who is not the viewer, made an owner of "default" in the database (seed-owners.sql). */
  ownerEmail?: string;
  /** What this version could not be given, each in words: the page of the sweep says it. */
  missing: string[];
}

interface Answer {
  status: number;
  json: Record<string, unknown>;
  cookie: string;
}

interface Call {
  authorization?: string;
  cookie?: string;
  body?: unknown;
}

const DAY_MS = 24 * 60 * 60_000;

async function call(baseUrl: string, method: string, path: string, { authorization, cookie, body }: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  if (authorization) headers.authorization = authorization;
  if (cookie) headers.cookie = cookie;
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    // Only an object's fields are read (a created token's secret); any other answer counts by its status.
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) json = Object.fromEntries(Object.entries(parsed));
  } catch {
    // not JSON: only the status matters then
  }
  return {
    status: response.status,
    json,
    cookie: response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
}

/** The answer, if its status is one of `ok`; otherwise an error naming the step and what Unleash said. */
async function step(what: string, answer: Promise<Answer>, ok = [200, 201]): Promise<Answer> {
  const a = await answer;
  if (!ok.includes(a.status)) throw new Error(`${what}: Unleash answered ${a.status} ${JSON.stringify(a.json).slice(0, 300)}`);
  return a;
}

/** Unleash's OWASP strength check refuses three equal characters in a row, which hex alone can give. */
const password = () =>
  `Cf-${randomBytes(8)
    .toString('hex')
    .replace(/(.)\1\1/g, '$1x$1')}!Zq7`;

/**
 * Waits until Unleash is migrated and answers, and gives the admin token it accepts: the configured one once it
 * is in the database, or, where the version has answered for a while without taking it, one made for the run.
 */
export async function waitUntilReady(baseUrl: string, adminToken: string, exited: () => boolean, timeoutMs = 240_000): Promise<string> {
  let answeringSince: number | undefined;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(500)) {
    if (exited()) throw new Error('Unleash exited during startup');
    const status = await call(baseUrl, 'GET', '/api/admin/projects', { authorization: adminToken }).then(
      (a) => a.status,
      () => 0,
    );
    if (status === 200) return adminToken;
    if (status === 401 || status === 403) answeringSince ??= Date.now();
    if (answeringSince !== undefined && Date.now() - answeringSince > 15_000) return adminTokenOf(baseUrl, adminToken);
  }
  throw new Error(`Unleash did not accept the admin token within ${timeoutMs / 1000} s`);
}

/** Logs in with Unleash's own form; the session's cookie. */
async function login(baseUrl: string, username: string, secret: string): Promise<string> {
  return (await step(`logging in as ${username}`, call(baseUrl, 'POST', '/auth/simple/login', { body: { username, password: secret } }))).cookie;
}

/**
 * The admin token the configuration gave (INIT_ADMIN_API_TOKENS), or one made through the admin's session
 * where the version does not read that variable; the token the suite is given either way.
 */
export async function adminTokenOf(baseUrl: string, configured: string): Promise<string> {
  const accepted = await call(baseUrl, 'GET', '/api/admin/projects', { authorization: configured });
  if (accepted.status === 200) return configured;
  const admin = await login(baseUrl, ADMIN_USER.username, ADMIN_USER.password);
  log("this version does not read INIT_ADMIN_API_TOKENS: an admin token is made through the admin's session");
  const made = await step(
    'creating an admin API token',
    call(baseUrl, 'POST', '/api/admin/api-tokens', { cookie: admin, body: { username: 'conformance-admin', tokenName: 'conformance-admin', type: 'admin' } }),
  );
  return String(made.json.secret);
}

/**
 * A backend (client) token Unleash knows, for the forbidden checks: the configured one if this version read it
 * (INIT_BACKEND_API_TOKENS, INIT_CLIENT_API_TOKENS), else one made with the admin token; undefined if neither.
 */
export async function backendTokenOf(baseUrl: string, adminToken: string, configured: string): Promise<string | undefined> {
  const known = async (token: string) => (await call(baseUrl, 'GET', '/api/client/features', { authorization: token }).catch(() => undefined))?.status === 200;
  if (await known(configured)) return configured;
  for (const type of ['backend', 'client']) {
    const body = { username: 'conformance-backend', tokenName: 'conformance-backend', type, environment: 'development', projects: ['*'] };
    const made = await call(baseUrl, 'POST', '/api/admin/api-tokens', { authorization: adminToken, body }).catch(() => undefined);
    const secret = made?.json.secret;
    if (typeof secret === 'string' && (await known(secret))) return secret;
  }
  return undefined;
}

/**
 * Creates the fixtures through Unleash's own HTTP API: three signup tokens (live, expired, live with two
 * users signed up through it), a personal access token of the first of those users, whose root role is
 * Viewer as the token grants it, and a feature flag in "default". What the version has no route for is left
 * out, and named in `missing`.
 */
export async function provision(baseUrl: string, adminToken: string): Promise<Fixtures> {
  const admin = await login(baseUrl, ADMIN_USER.username, ADMIN_USER.password);
  const suffix = randomBytes(3).toString('hex');
  const missing: string[] = [];
  // One flag, so that featureCount is not only ever 0.
  const flag = await call(baseUrl, 'POST', '/api/admin/projects/default/features', { authorization: adminToken, body: { name: `conformance-flag-${suffix}` } });
  if (![200, 201].includes(flag.status)) missing.push(`a feature flag (creating one answered ${flag.status})`);
  const probe = await call(baseUrl, 'GET', '/api/admin/invite-link/tokens', { cookie: admin });
  if (probe.status === 404) {
    missing.push('signup tokens: this version has no invite-link route (it arrived in 4.16), so no signed-up users either');
    return { signupTokens: [], missing };
  }
  const signupToken = async (name: string, fromNowMs: number) => {
    const body = { name: `conformance-${name}-${suffix}`, expiresAt: new Date(Date.now() + fromNowMs).toISOString() };
    return String(
      (await step(`creating the signup token ${name}`, call(baseUrl, 'POST', '/api/admin/invite-link/tokens', { cookie: admin, body }))).json.secret,
    );
  };
  log('provisioning: signup tokens live, expired, with users; a viewer and their personal access token');
  const signupTokens = [await signupToken('live', 14 * DAY_MS), await signupToken('expired', -2 * DAY_MS), await signupToken('with-users', 14 * DAY_MS)];
  const users = [
    { name: 'Conformance Viewer', email: `conformance-viewer-${suffix}@example.com`, username: `conformance-viewer-${suffix}`, password: password() },
    { name: 'Conformance Owner', email: `conformance-owner-${suffix}@example.com`, password: password() },
  ];
  for (const user of users) await step(`signing up ${user.email}`, call(baseUrl, 'POST', `/invite/${signupTokens[2]}/signup`, { body: user }));

  const viewer = await login(baseUrl, users[0].email, users[0].password);
  const pat = { description: 'conformance viewer', expiresAt: new Date(Date.now() + 30 * DAY_MS).toISOString() };
  const made = await call(baseUrl, 'POST', '/api/admin/user/tokens', { cookie: viewer, body: pat });
  const viewerToken = [200, 201].includes(made.status) && typeof made.json.secret === 'string' ? made.json.secret : undefined;
  if (viewerToken === undefined) missing.push(`a viewer's personal access token (creating one answered ${made.status})`);
  return { signupTokens, viewerToken, ownerEmail: users[1].email, missing };
}

/** Whether the projects list names owners: before 5.12 (behind a flag until 6.0) Unleash sends none, and projects-data cannot be exercised. */
export async function ownersListed(baseUrl: string, adminToken: string): Promise<boolean> {
  const { json } = await call(baseUrl, 'GET', '/api/admin/projects', { authorization: adminToken });
  const projects = Array.isArray(json.projects) ? (json.projects as unknown[]) : [];
  return projects.some(
    (p) => p !== null && typeof p === 'object' && Array.isArray((p as { owners?: unknown }).owners) && (p as { owners: unknown[] }).owners.length > 0,
  );
}
