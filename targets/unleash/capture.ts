import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HttpResponse, request } from './http.js';
import { type StartedUnleash, startUnleash } from './index.js';
import { describeError, randomHex, stderrLogger } from './util.js';

/**
 * Starts a real Unleash, sends the two specified operations with every kind of
 * credential, and writes what came back (tokens redacted) plus the places where
 * it departs from /work/shared/spec/admin-api.md to docs/unleash/captured-<version>.md.
 *
 *   npx tsx targets/unleash/capture.ts <version> [--out FILE]
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const DOCS_DIR = path.resolve(here, '../../docs/unleash');

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'date-time' | 'array' | 'object';
interface FieldSpec {
  kind: Kind;
  required?: boolean;
  nullable?: boolean;
}
type Shape = Record<string, FieldSpec>;

// Field tables of the specification, sections 2.1 to 2.5.
const TOKEN_SHAPE: Shape = {
  secret: { kind: 'string', required: true },
  url: { kind: 'string', required: true, nullable: true },
  name: { kind: 'string', required: true },
  enabled: { kind: 'boolean', required: true },
  expiresAt: { kind: 'date-time', required: true },
  createdAt: { kind: 'date-time', required: true },
  createdBy: { kind: 'string', required: true, nullable: true },
  users: { kind: 'array', nullable: true },
  role: { kind: 'object', required: true },
};
const USER_SHAPE: Shape = {
  id: { kind: 'integer', required: true },
  isAPI: { kind: 'boolean' },
  name: { kind: 'string', nullable: true },
  email: { kind: 'string' },
  username: { kind: 'string', nullable: true },
  imageUrl: { kind: 'string' },
  inviteLink: { kind: 'string' },
  loginAttempts: { kind: 'integer' },
  emailSent: { kind: 'boolean' },
  rootRole: { kind: 'integer' },
  seenAt: { kind: 'date-time', nullable: true },
  createdAt: { kind: 'date-time' },
  accountType: { kind: 'string' },
  permissions: { kind: 'array' },
  scimId: { kind: 'string', nullable: true },
};
const ROLE_SHAPE: Shape = {
  id: { kind: 'integer', required: true },
  type: { kind: 'string', required: true },
  name: { kind: 'string', required: true },
  description: { kind: 'string' },
  project: { kind: 'string', nullable: true },
};
const PROJECTS_SHAPE: Shape = {
  version: { kind: 'integer', required: true },
  projects: { kind: 'array', required: true },
};
const PROJECT_SHAPE: Shape = {
  id: { kind: 'string', required: true },
  name: { kind: 'string', required: true },
  description: { kind: 'string', nullable: true },
  health: { kind: 'number' },
  featureCount: { kind: 'number' },
  staleFeatureCount: { kind: 'number' },
  potentiallyStaleFeatureCount: { kind: 'number' },
  memberCount: { kind: 'number' },
  createdAt: { kind: 'date-time' },
  updatedAt: { kind: 'date-time', nullable: true },
  lastUpdatedAt: { kind: 'date-time', nullable: true },
  archivedAt: { kind: 'date-time', nullable: true },
  favorite: { kind: 'boolean' },
  mode: { kind: 'string' },
  defaultStickiness: { kind: 'string' },
  avgTimeToProduction: { kind: 'number' },
  lastReportedFlagUsage: { kind: 'date-time', nullable: true },
  owners: { kind: 'array' },
};

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function kindOk(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'date-time':
      return typeof value === 'string' && RFC3339.test(value) && !Number.isNaN(Date.parse(value));
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

/** Lists every way `value` departs from `shape`; additional properties are reported separately, not as errors. */
function checkShape(where: string, value: unknown, shape: Shape): { problems: string[]; extra: string[] } {
  const problems: string[] = [];
  if (!kindOk('object', value)) return { problems: [`${where} is not an object`], extra: [] };
  const obj = value as Record<string, unknown>;
  for (const [field, spec] of Object.entries(shape)) {
    if (!(field in obj)) {
      if (spec.required) problems.push(`${where}.${field} is missing (required)`);
      continue;
    }
    const v = obj[field];
    if (v === null) {
      if (!spec.nullable) problems.push(`${where}.${field} is null (not nullable)`);
    } else if (!kindOk(spec.kind, v)) {
      problems.push(`${where}.${field} = ${JSON.stringify(v)} is not a ${spec.kind}`);
    }
  }
  const extra = Object.keys(obj).filter((k) => !(k in shape));
  return { problems, extra };
}

interface Credential {
  label: string;
  header?: string;
}

interface Case {
  title: string;
  path: string;
  credential: Credential;
  note?: string;
}

interface Captured extends Case {
  response: HttpResponse;
}

function parseArgs(argv: string[]): { version: string; out?: string } {
  let version: string | undefined;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--out') out = argv[++i];
    else if (!a.startsWith('-') && !version) version = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!version) throw new Error('usage: npx tsx targets/unleash/capture.ts <version> [--out FILE]');
  return { version, out };
}

function buildCases(u: StartedUnleash, unknownSecret: string, invalidToken: string): Case[] {
  const p = u.provisioned;
  const { live, expired, withUsers } = p.signupTokens;
  const admin: Credential = { label: 'admin API token', header: u.adminToken };
  const none: Credential = { label: 'no authorization header' };
  const invalid: Credential = { label: 'invalid token (admin-token shaped, never issued)', header: invalidToken };
  const garbage: Credential = { label: 'invalid token (free text)', header: 'not-a-token' };
  const forbidden: Credential = { label: `forbidden credential (${p.forbiddenCredential ?? 'none found'})`, header: p.forbiddenToken };
  const bearer: Credential = { label: 'admin API token with a "Bearer " scheme word', header: `Bearer ${u.adminToken}` };
  const projects = '/api/admin/projects';
  const token = (s: string) => `/api/admin/invite-link/tokens/${s}`;
  const cases: Case[] = [
    { title: 'List projects', path: projects, credential: admin },
    { title: 'List projects, archived=true', path: `${projects}?archived=true`, credential: admin },
    { title: 'List projects, archived=false', path: `${projects}?archived=false`, credential: admin },
    { title: 'Signup token: live', path: token(live), credential: admin },
    { title: 'Signup token: expired (created with expiresAt two days in the past)', path: token(expired), credential: admin },
    { title: 'Signup token: live, with two users signed up through it', path: token(withUsers), credential: admin },
    { title: 'Signup token: unknown secret', path: token(unknownSecret), credential: admin },
    { title: 'List projects', path: projects, credential: none },
    { title: 'Signup token: live', path: token(live), credential: none },
    { title: 'List projects', path: projects, credential: invalid },
    { title: 'Signup token: live', path: token(live), credential: invalid },
    { title: 'List projects', path: projects, credential: garbage },
    { title: 'List projects', path: projects, credential: bearer },
  ];
  if (p.forbiddenToken) {
    cases.push({ title: 'List projects', path: projects, credential: forbidden });
    cases.push({ title: 'Signup token: live', path: token(live), credential: forbidden });
  }
  for (const probe of p.probes) {
    if (probe.token === p.forbiddenToken) continue;
    const c: Credential = { label: probe.credential, header: probe.token };
    cases.push({ title: 'List projects', path: projects, credential: c });
    cases.push({ title: 'Signup token: live', path: token(live), credential: c });
  }
  return cases;
}

function redactor(u: StartedUnleash, extra: string[]): (text: string) => string {
  const p = u.provisioned;
  const secrets = [
    u.adminToken,
    u.backendToken,
    u.frontendToken,
    p.viewerPat,
    ...p.probes.map((x) => x.token),
    ...p.signupTokenList,
    ...extra,
  ].filter((s): s is string => Boolean(s));
  // Longest first, so that a secret containing another is replaced whole.
  secrets.sort((a, b) => b.length - a.length);
  const port = new URL(u.baseUrl).port;
  return (text: string) => {
    let out = text;
    for (const s of secrets) out = out.split(s).join('$TOKEN');
    return out.split(`127.0.0.1:${port}`).join('127.0.0.1:$PORT');
  };
}

interface Findings {
  /** Places where the server contradicts the specification. */
  deviations: string[];
  /** Facts about behaviour the specification leaves open ("not shown") or does not forbid. */
  observations: string[];
}

function errorFindings(c: Captured, f: Findings): void {
  const { status, json, contentType } = c.response;
  const where = `${c.credential.label} → ${c.path.replace(/tokens\/[^/?]+/, 'tokens/…')}`;
  // The specification only defines 401 and 403 error responses; other statuses are reported for information.
  const bucket = status === 401 || status === 403 ? f.deviations : f.observations;
  const suffix = bucket === f.observations ? ` (status ${status} is not covered by the specification)` : '';
  if (!contentType?.startsWith('application/json')) bucket.push(`${where}: ${status} with content-type ${contentType ?? '(none)'}${suffix}`);
  const body = json as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') {
    bucket.push(`${where}: ${status} body is not a JSON object${suffix}`);
    return;
  }
  const missing = ['id', 'name', 'message'].filter((k) => typeof body[k] !== 'string');
  if (missing.length) bucket.push(`${where}: ${status} error body lacks string ${missing.join(', ')} (has: ${Object.keys(body).join(', ')})${suffix}`);
  const expectedName = status === 401 ? 'AuthenticationRequired' : status === 403 ? 'NoAccessError' : undefined;
  if (expectedName && body.name !== expectedName) {
    bucket.push(`${where}: ${status} error name is ${JSON.stringify(body.name)}, the specification says ${expectedName}`);
  }
  if (status === 404) f.observations.push(`${where}: 404 ${JSON.stringify(body.name)}: ${JSON.stringify(body.message)}`);
}

function analyse(captured: Captured[], u: StartedUnleash): Findings {
  const f: Findings = { deviations: [], observations: [] };
  const findings = f.deviations;
  const extras = new Map<string, Set<string>>();
  const seen = new Map<string, Set<string>>();
  const addSeen = (what: string, value: unknown) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    const set = seen.get(what) ?? new Set<string>();
    Object.keys(value).forEach((k) => set.add(k));
    seen.set(what, set);
  };
  const addExtra = (what: string, keys: string[]) => {
    if (!keys.length) return;
    const set = extras.get(what) ?? new Set<string>();
    keys.forEach((k) => set.add(k));
    extras.set(what, set);
  };
  const { expired, withUsers } = u.provisioned.signupTokens;

  for (const c of captured) {
    const { status, json, contentType } = c.response;
    if (status >= 400) {
      errorFindings(c, f);
      continue;
    }
    if (status !== 200) {
      findings.push(`${c.credential.label} → ${c.path}: unexpected status ${status}`);
      continue;
    }
    if (!contentType?.startsWith('application/json')) findings.push(`${c.path}: 200 with content-type ${contentType}`);
    if (c.path.startsWith('/api/admin/projects')) {
      const top = checkShape('projects list', json, PROJECTS_SHAPE);
      findings.push(...top.problems);
      addExtra('projects list', top.extra);
      const list = (json as { projects?: unknown[] }).projects ?? [];
      list.forEach((project, i) => {
        addSeen('project', project);
        const r = checkShape(`projects[${i}]`, project, PROJECT_SHAPE);
        findings.push(...r.problems.map((x) => `${c.path}: ${x}`));
        addExtra('project', r.extra);
        const mode = (project as { mode?: unknown }).mode;
        if (mode !== undefined && !['open', 'protected', 'private'].includes(mode as string)) findings.push(`${c.path}: projects[${i}].mode = ${JSON.stringify(mode)}`);
        const owners = (project as { owners?: unknown[] }).owners ?? [];
        for (const o of owners) {
          const t = (o as { ownerType?: unknown }).ownerType;
          if (!['user', 'group', 'system'].includes(t as string)) findings.push(`${c.path}: owner with ownerType ${JSON.stringify(t)}`);
        }
      });
    } else {
      addSeen('signup token', json);
      const r = checkShape('token', json, TOKEN_SHAPE);
      findings.push(...r.problems.map((x) => `${c.path}: ${x}`));
      addExtra('signup token', r.extra);
      const token = json as { secret?: string; enabled?: unknown; expiresAt?: string; role?: unknown; users?: unknown[] | null };
      addSeen('role', token.role);
      const role = checkShape('token.role', token.role, ROLE_SHAPE);
      findings.push(...role.problems);
      addExtra('role', role.extra);
      (token.users ?? []).forEach((user, i) => {
        addSeen('user (element of users)', user);
        const ur = checkShape(`token.users[${i}]`, user, USER_SHAPE);
        findings.push(...ur.problems);
        addExtra('user', ur.extra);
      });
      if (token.expiresAt && Date.parse(token.expiresAt) < Date.now() && token.enabled !== false) {
        findings.push(
          `the expired token (expiresAt ${token.expiresAt}) reads enabled: ${JSON.stringify(token.enabled)}; the specification says it is always false once expired`,
        );
      }
      if (token.secret === withUsers && !(token.users && token.users.length > 0)) findings.push('the token with signed-up users shows no users');
      if (token.secret === expired && token.expiresAt && Date.parse(token.expiresAt) >= Date.now()) findings.push('the "expired" token is not expired');
    }
  }

  const byTitle = (t: string) => captured.find((c) => c.title === t && c.credential.label === 'admin API token');
  const all = byTitle('List projects');
  const archivedTrue = byTitle('List projects, archived=true');
  const archivedFalse = byTitle('List projects, archived=false');
  if (all && archivedTrue && archivedFalse) {
    const ids = (c: Captured) => ((c.response.json as { projects?: Array<{ id: string }> })?.projects ?? []).map((p) => p.id).join(',');
    f.observations.push(
      `archived query: no parameter → [${ids(all)}], archived=true → [${ids(archivedTrue)}], archived=false → [${ids(archivedFalse)}] (effect not specified)`,
    );
  }
  for (const c of captured) {
    if (c.credential.label.includes('Bearer') || c.credential.label.includes('personal access token')) {
      f.observations.push(`${c.credential.label} → ${c.path.replace(/tokens\/[^/?]+/, 'tokens/…')}: ${c.response.status}`);
    }
  }
  for (const [what, keys] of seen) {
    f.observations.push(`${what} objects carry these fields: ${[...keys].join(', ')}`);
  }
  for (const [what, keys] of extras) {
    f.observations.push(`${what} objects carry fields the specification does not list: ${[...keys].join(', ')}`);
  }
  return { deviations: [...new Set(f.deviations)], observations: [...new Set(f.observations)] };
}

function render(u: StartedUnleash, captured: Captured[], findings: Findings, redact: (s: string) => string): string {
  const p = u.provisioned;
  const lines: string[] = [];
  lines.push(`# Captured responses: Unleash ${u.version} (open-source edition)`);
  lines.push('');
  lines.push(
    `Captured ${new Date().toISOString()} from a fresh \`unleash-server@${u.version}\` on Node ${u.node.version} and PostgreSQL 15, ` +
      `started and provisioned by \`targets/unleash/start.ts\`; regenerate with \`npx tsx targets/unleash/capture.ts ${u.version}\`. ` +
      'Every token and signup secret is replaced by `$TOKEN`, the loopback port by `$PORT`. Error ids and timestamps differ per run.',
  );
  lines.push('');
  lines.push('## Fixtures');
  lines.push('');
  lines.push('- Signup tokens, created with the admin session through `POST /api/admin/invite-link/tokens` `{"name","expiresAt"}`: live (expires in 14 days), expired (expiresAt 2 days in the past, accepted at creation), live with two users signed up through `POST /invite/:token/signup` `{"name","email","password"[,"username"]}`.');
  lines.push(`- Forbidden credential: ${p.forbiddenCredential ?? 'none found'}.`);
  lines.push('- Setup calls and their answers:');
  lines.push('');
  lines.push('| call | status |');
  lines.push('|---|---|');
  for (const s of p.setup) lines.push(`| \`${s.method} ${redact(s.path)}\` (${s.label}) | ${s.status} |`);
  lines.push('');
  if (p.notes.length) {
    lines.push('Notes from provisioning:');
    lines.push('');
    for (const n of p.notes) lines.push(`- ${redact(n)}`);
    lines.push('');
  }
  lines.push('## Deviations from the specification (computed from the exchanges below)');
  lines.push('');
  for (const f of findings.deviations) lines.push(`- ${redact(f)}`);
  if (findings.deviations.length === 0) lines.push('- none found');
  lines.push('');
  lines.push('## Observations on what the specification leaves open');
  lines.push('');
  for (const f of findings.observations) lines.push(`- ${redact(f)}`);
  lines.push('');
  lines.push('## Exchanges');
  captured.forEach((c, i) => {
    lines.push('');
    lines.push(`### ${i + 1}. ${c.title} — ${c.credential.label}`);
    lines.push('');
    lines.push(`- request: \`GET ${redact(c.path)}\`${c.credential.header !== undefined ? ` with \`authorization: ${redact(c.credential.header)}\`` : ' without an authorization header'}`);
    lines.push(`- status: **${c.response.status}**`);
    lines.push(`- content-type: \`${c.response.contentType ?? '(none)'}\``);
    lines.push('');
    const body = c.response.json !== undefined ? JSON.stringify(c.response.json, null, 2) : c.response.text || '(empty body)';
    lines.push(c.response.json !== undefined ? '```json' : '```');
    lines.push(redact(body));
    lines.push('```');
  });
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  let args: { version: string; out?: string };
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(2);
  }
  let started: StartedUnleash;
  try {
    started = await startUnleash(args.version, { log: stderrLogger });
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n`);
    process.exit(1);
  }
  try {
    const unknownSecret = randomHex(16);
    const invalidToken = `*:*.${randomHex(24)}`;
    const cases = buildCases(started, unknownSecret, invalidToken);
    const captured: Captured[] = [];
    for (const c of cases) {
      const response = await request(started.baseUrl, 'GET', c.path, { authorization: c.credential.header });
      captured.push({ ...c, response });
    }
    const redact = redactor(started, [unknownSecret, invalidToken]);
    const findings = analyse(captured, started);
    const out = path.resolve(args.out ?? path.join(DOCS_DIR, `captured-${started.version}.md`));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, render(started, captured, findings, redact));
    process.stdout.write(`${out}\n`);
    for (const f of findings.deviations) process.stdout.write(`- deviation: ${redact(f)}\n`);
    for (const f of findings.observations) process.stdout.write(`- observation: ${redact(f)}\n`);
  } catch (error) {
    process.stderr.write(`${describeError(error)}\n`);
    process.exitCode = 1;
  } finally {
    await started.stop();
  }
}

void main();
