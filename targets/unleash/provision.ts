import { randomBytes } from 'node:crypto';
import { log, sleep } from './supervisor.ts';

/** The admin account every fresh Unleash has. */
export const ADMIN_USER = { username: 'admin', password: 'unleash4all' };

/** What the suite needs from a provisioned Unleash. */
export interface Fixtures {
  /** Live, expired, live with signed-up users: the order of the target file. */
  signupTokens: string[];
  /** A personal access token of a user whose root role is Viewer. */
  viewerToken: string;
  /** A signed-up user who is not the viewer, made an owner of "default" in the database (seed-owners.sql). */
  ownerEmail: string;
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

/** Waits until Unleash accepts the admin token: it is healthy, migrated, and the token is in the database. */
export async function waitUntilReady(baseUrl: string, adminToken: string, exited: () => boolean, timeoutMs = 240_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(500)) {
    if (exited()) throw new Error('Unleash exited during startup');
    const status = await call(baseUrl, 'GET', '/api/admin/projects', { authorization: adminToken }).then(
      (a) => a.status,
      () => 0,
    );
    if (status === 200) return;
  }
  throw new Error(`Unleash did not accept the admin token within ${timeoutMs / 1000} s`);
}

/**
 * Creates the fixtures through Unleash's own HTTP API: three signup tokens (live, expired, live with two
 * users signed up through it), a personal access token of the first of those users, whose root role is
 * Viewer as the token grants it, and a feature flag in "default".
 */
export async function provision(baseUrl: string, adminToken: string): Promise<Fixtures> {
  const login = async (username: string, secret: string) =>
    (await step(`logging in as ${username}`, call(baseUrl, 'POST', '/auth/simple/login', { body: { username, password: secret } }))).cookie;
  const admin = await login(ADMIN_USER.username, ADMIN_USER.password);
  const suffix = randomBytes(3).toString('hex');
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

  const viewer = await login(users[0].email, users[0].password);
  const pat = { description: 'conformance viewer', expiresAt: new Date(Date.now() + 30 * DAY_MS).toISOString() };
  const viewerToken = String(
    (await step('creating the viewer personal access token', call(baseUrl, 'POST', '/api/admin/user/tokens', { cookie: viewer, body: pat }))).json.secret,
  );
  // One flag, so that featureCount is not only ever 0.
  await step(
    'creating a feature flag',
    call(baseUrl, 'POST', '/api/admin/projects/default/features', { authorization: adminToken, body: { name: `conformance-flag-${suffix}` } }),
  );
  return { signupTokens, viewerToken, ownerEmail: users[1].email };
}
