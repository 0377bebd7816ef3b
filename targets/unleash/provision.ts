import { type HttpResponse, cookieHeader, request } from './http.js';
import type { DatabaseSeed } from './seed-db.js';
import { type Logger, TargetError, randomHex, silentLogger, sleep } from './util.js';

export const DEFAULT_ADMIN_USER = { username: 'admin', password: 'unleash4all' };

export interface ProvisionOptions {
  baseUrl: string;
  /** An admin API token (e.g. from INIT_ADMIN_API_TOKENS). */
  adminToken: string;
  /** Tokens that are valid but of a non-admin type; probed as forbidden-credential candidates. */
  backendToken?: string;
  frontendToken?: string;
  adminUser?: { username: string; password: string };
  log?: Logger;
  readyTimeoutMs?: number;
}

/** One HTTP exchange, kept verbatim so that reports can show exactly what the server said. */
export interface CallRecord {
  label: string;
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

export interface CredentialProbe {
  credential: string;
  token: string;
  projects: CallRecord;
  signupToken: CallRecord;
  forbiddenForBoth: boolean;
}

export interface SignedUpUser {
  id?: number;
  name: string;
  email: string;
  username?: string;
  password: string;
}

export interface ProvisionResult {
  unleashVersion?: string;
  signupTokens: { live: string; expired: string; withUsers: string };
  /** The order written to the target file: live, expired, live with users. */
  signupTokenList: string[];
  signedUpUsers: SignedUpUser[];
  viewerPat?: string;
  forbiddenToken?: string;
  forbiddenCredential?: string;
  probes: CredentialProbe[];
  /** Every setup call, successful or not, including the ones the OSS edition refuses. */
  setup: CallRecord[];
  notes: string[];
  /** Present only when database seeding was asked for (see seed-db.ts). */
  databaseSeed?: DatabaseSeed;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function record(label: string, method: string, path: string, response: HttpResponse): CallRecord {
  return {
    label,
    method,
    path,
    status: response.status,
    contentType: response.contentType,
    body: response.json ?? (response.text.length > 0 ? response.text : null),
  };
}

function short(response: HttpResponse): string {
  return `${response.status} ${response.text.slice(0, 300).replace(/\s+/g, ' ')}`;
}

/** Unleash checks passwords with the OWASP strength test, which rejects three identical characters in a row. */
function strongPassword(): string {
  for (;;) {
    const candidate = `Cf-${randomHex(10)}!Zq7`;
    if (!/(.)\1\1/.test(candidate)) return candidate;
  }
}

function errorName(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'name' in body) {
    const { name } = body as { name: unknown };
    return typeof name === 'string' ? name : undefined;
  }
  return undefined;
}

async function waitUntilAdminTokenWorks(baseUrl: string, adminToken: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no response';
  while (Date.now() < deadline) {
    try {
      const res = await request(baseUrl, 'GET', '/api/admin/projects', { authorization: adminToken, timeoutMs: 10_000 });
      if (res.status === 200) return;
      last = short(res);
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(500);
  }
  throw new TargetError(`the admin API token was not accepted within ${Math.round(timeoutMs / 1000)}s (last: ${last})`);
}

async function login(baseUrl: string, username: string, password: string, setup: CallRecord[], label: string): Promise<string> {
  const path = '/auth/simple/login';
  const res = await request(baseUrl, 'POST', path, { body: { username, password } });
  setup.push(record(label, 'POST', path, res));
  const cookie = cookieHeader(res.setCookies);
  if (res.status !== 200 || !cookie) {
    throw new TargetError(`session login as "${username}" failed: ${short(res)}`);
  }
  return cookie;
}

/**
 * Creates the fixtures the conformance suite needs, using only Unleash's own HTTP API:
 * three public signup tokens (live, already expired, live with signed-up users),
 * a Viewer user with a personal access token, and a probe of every candidate
 * credential for a 403 on both specified operations.
 */
export async function provision(options: ProvisionOptions): Promise<ProvisionResult> {
  const { baseUrl, adminToken } = options;
  const log = options.log ?? silentLogger;
  const adminUser = options.adminUser ?? DEFAULT_ADMIN_USER;
  const setup: CallRecord[] = [];
  const notes: string[] = [];

  await waitUntilAdminTokenWorks(baseUrl, adminToken, options.readyTimeoutMs ?? 60_000);

  let unleashVersion: string | undefined;
  const uiConfig = await request(baseUrl, 'GET', '/api/admin/ui-config', { authorization: adminToken });
  if (uiConfig.status === 200 && uiConfig.json && typeof uiConfig.json === 'object') {
    const cfg = uiConfig.json as { version?: string; versionInfo?: { current?: { oss?: string } } };
    unleashVersion = cfg.versionInfo?.current?.oss ?? cfg.version;
  }

  log(`logging in as "${adminUser.username}"`);
  const adminCookie = await login(baseUrl, adminUser.username, adminUser.password, setup, 'admin session login');

  const createSignupToken = async (name: string, expiresAt: Date): Promise<{ secret: string; body: unknown }> => {
    const path = '/api/admin/invite-link/tokens';
    const res = await request(baseUrl, 'POST', path, {
      cookie: adminCookie,
      body: { name, expiresAt: expiresAt.toISOString() },
    });
    setup.push(record(`create signup token "${name}"`, 'POST', path, res));
    const secret = (res.json as { secret?: unknown } | undefined)?.secret;
    if (res.status !== 201 || typeof secret !== 'string') {
      throw new TargetError(`creating signup token "${name}" failed: ${short(res)}`);
    }
    return { secret, body: res.json };
  };

  log('creating public signup tokens');
  const now = Date.now();
  const suffix = randomHex(3);
  const live = await createSignupToken(`conformance-live-${suffix}`, new Date(now + 14 * DAY_MS));
  const expired = await createSignupToken(`conformance-expired-${suffix}`, new Date(now - 2 * DAY_MS));
  const withUsers = await createSignupToken(`conformance-with-users-${suffix}`, new Date(now + 14 * DAY_MS));

  log('signing up users through the third token');
  const signedUpUsers: SignedUpUser[] = [];
  const signups: Array<Omit<SignedUpUser, 'password' | 'id'>> = [
    { name: 'Conformance Viewer', email: `conformance-viewer-${suffix}@example.com`, username: `conformance-viewer-${suffix}` },
    { name: 'Conformance Second', email: `conformance-second-${suffix}@example.com` },
  ];
  for (const signup of signups) {
    const password = strongPassword();
    const path = `/invite/${withUsers.secret}/signup`;
    const res = await request(baseUrl, 'POST', path, { body: { ...signup, password } });
    setup.push(record(`sign up ${signup.email}`, 'POST', path, res));
    if (res.status !== 200 && res.status !== 201) {
      throw new TargetError(`signing up ${signup.email} through the invite link failed: ${short(res)}`);
    }
    const id = (res.json as { id?: unknown } | undefined)?.id;
    signedUpUsers.push({ ...signup, password, id: typeof id === 'number' ? id : undefined });
  }

  const viewer = signedUpUsers[0]!;
  let viewerPat: string | undefined;
  log('creating a personal access token for the Viewer user');
  try {
    const viewerCookie = await login(baseUrl, viewer.email, viewer.password, setup, 'viewer session login');
    const path = '/api/admin/user/tokens';
    const res = await request(baseUrl, 'POST', path, {
      cookie: viewerCookie,
      body: { description: 'conformance viewer PAT', expiresAt: new Date(now + 30 * DAY_MS).toISOString() },
    });
    setup.push(record('create viewer personal access token', 'POST', path, res));
    const secret = (res.json as { secret?: unknown } | undefined)?.secret;
    if (res.status === 201 && typeof secret === 'string') viewerPat = secret;
    else notes.push(`creating a personal access token for the Viewer user failed: ${short(res)}`);
  } catch (error) {
    notes.push(`Viewer session/PAT: ${(error as Error).message}`);
  }

  let serviceAccountToken: string | undefined;
  {
    const roleId = (live.body as { role?: { id?: unknown } }).role?.id;
    const path = '/api/admin/service-account';
    const res = await request(baseUrl, 'POST', path, {
      cookie: adminCookie,
      body: { username: `conformance-sa-${suffix}`, name: 'Conformance service account', rootRole: roleId },
    });
    setup.push(record('create Viewer service account', 'POST', path, res));
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if ((res.status === 200 || res.status === 201) && typeof id === 'number') {
      const tokenPath = `/api/admin/service-account/${id}/token`;
      const tokenRes = await request(baseUrl, 'POST', tokenPath, {
        cookie: adminCookie,
        body: { description: 'conformance service account token', expiresAt: new Date(now + 30 * DAY_MS).toISOString() },
      });
      setup.push(record('create service account token', 'POST', tokenPath, tokenRes));
      const secret = (tokenRes.json as { secret?: unknown } | undefined)?.secret;
      if (typeof secret === 'string') serviceAccountToken = secret;
    } else {
      notes.push(`service accounts are not available (POST ${path} -> ${res.status})`);
    }
  }

  log('probing candidate credentials for 403');
  const candidates: Array<[string, string | undefined]> = [
    ['Viewer service account token', serviceAccountToken],
    ['Viewer personal access token', viewerPat],
    ['backend (client) API token', options.backendToken],
    ['frontend API token', options.frontendToken],
  ];
  const probes: CredentialProbe[] = [];
  for (const [credential, token] of candidates) {
    if (!token) continue;
    const projectsPath = '/api/admin/projects';
    const tokenPath = `/api/admin/invite-link/tokens/${live.secret}`;
    const projects = record(`projects with ${credential}`, 'GET', projectsPath, await request(baseUrl, 'GET', projectsPath, { authorization: token }));
    const signupToken = record(`signup token with ${credential}`, 'GET', tokenPath, await request(baseUrl, 'GET', tokenPath, { authorization: token }));
    probes.push({ credential, token, projects, signupToken, forbiddenForBoth: projects.status === 403 && signupToken.status === 403 });
  }
  const forbidding = probes.filter((p) => p.forbiddenForBoth);
  const preferred =
    forbidding.find((p) => errorName(p.projects.body) === 'NoAccessError' && errorName(p.signupToken.body) === 'NoAccessError') ??
    forbidding[0];
  if (!preferred) notes.push('no credential was found that gets 403 on both operations');

  log('trying to add a feature flag and a second project');
  {
    const path = '/api/admin/projects/default/features';
    const res = await request(baseUrl, 'POST', path, { authorization: adminToken, body: { name: `conformance-flag-${suffix}` } });
    setup.push(record('create feature flag in default project', 'POST', path, res));
  }
  {
    const id = `conformance-second-${suffix}`;
    const path = '/api/admin/projects';
    const res = await request(baseUrl, 'POST', path, { authorization: adminToken, body: { id, name: 'Conformance second project' } });
    setup.push(record('create second project', 'POST', path, res));
    if (res.status === 200 || res.status === 201) {
      const archivePath = `/api/admin/projects/archive/${id}`;
      const archived = await request(baseUrl, 'POST', archivePath, { authorization: adminToken });
      setup.push(record('archive second project', 'POST', archivePath, archived));
    } else {
      notes.push(`creating a second project is not possible (POST ${path} -> ${res.status}); only "default" exists`);
    }
  }

  {
    const res = await request(baseUrl, 'GET', `/api/admin/invite-link/tokens/${expired.secret}`, { authorization: adminToken });
    const enabled = (res.json as { enabled?: unknown } | undefined)?.enabled;
    if (enabled !== false) notes.push(`the expired signup token reads enabled: ${JSON.stringify(enabled)} (the specification requires false)`);
  }

  return {
    unleashVersion,
    signupTokens: { live: live.secret, expired: expired.secret, withUsers: withUsers.secret },
    signupTokenList: [live.secret, expired.secret, withUsers.secret],
    signedUpUsers,
    viewerPat,
    forbiddenToken: preferred?.token,
    forbiddenCredential: preferred?.credential,
    probes,
    setup,
    notes,
  };
}
