import fs from 'node:fs';
import path from 'node:path';
import { request } from './http.js';
import type { CallRecord } from './provision.js';
import { type Logger, TargetError, runChecked, silentLogger } from './util.js';

/** Set to 1 (or true) to seed the database after provisioning; `StartOptions.seedDatabase` overrides it. */
export const SEED_ENV = 'UNLEASH_TARGET_SEED_DB';

export function seedRequestedByEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return ['1', 'true', 'yes'].includes((env[SEED_ENV] ?? '').trim().toLowerCase());
}

export interface SeedOptions {
  /** The run's loopback connection, `postgres://user:password@127.0.0.1:port/db`. */
  databaseUrl: string;
  /** Where to look for psql first; PATH is the fallback. */
  pgBinDir?: string;
  /** The SQL that is run is kept here as `seed-db.sql`. */
  runDir: string;
  baseUrl: string;
  adminToken: string;
  /** Email of a user that already exists (signed up through a token); it becomes an owner of `default`. */
  ownerEmail: string;
  /** Recorded as `created_by`, as Unleash records the acting user's username. */
  actingUsername: string;
  log?: Logger;
  signal?: AbortSignal;
}

export interface DatabaseSeed {
  /** What was written. */
  seeded: string[];
  /** What could have been seeded on another schema but was not on this one, with the reason. */
  skipped: string[];
  /** Inputs the open-source edition cannot serve at all, so seeding them would change nothing. */
  notServable: string[];
  sqlFile?: string;
  /** `GET /api/admin/projects` after seeding: the server's own answer with the seeded owners. */
  check?: CallRecord;
  served: { userOwner: boolean; groupOwner: boolean };
}

export const GROUP_NAME = 'Conformance owners';

// Checked against the server code of 6.10.1, 7.6.5 and 8.2.0 (see docs/unleash/README.md).
const NOT_SERVABLE = [
  'a second or an archived project: the OSS ProjectController.getProjects always asks for project "default" only and passes no archived flag, so other rows in `projects` are never listed',
  'seenAt/createdAt of a signup-token user: PublicSignupTokenStore selects only users.id, users.name and users.username for them',
];

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;

function psqlBinary(pgBinDir: string | undefined): string {
  const candidate = pgBinDir ? path.join(pgBinDir, 'psql') : undefined;
  return candidate && fs.existsSync(candidate) ? candidate : 'psql';
}

async function psql(options: SeedOptions, what: string, args: string[]): Promise<string> {
  const url = new URL(options.databaseUrl);
  // The password goes through the environment so that it does not show in the process list.
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('PG')) env[key] = value;
  }
  env.PGPASSWORD = decodeURIComponent(url.password);
  env.PGCONNECT_TIMEOUT = '10';
  env.LC_ALL = 'C';
  const connection = [
    '-h', url.hostname,
    '-p', url.port || '5432',
    '-U', decodeURIComponent(url.username),
    '-d', url.pathname.replace(/^\//, ''),
  ];
  try {
    return await runChecked(what, psqlBinary(options.pgBinDir), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', ...connection, ...args], {
      env,
      timeoutMs: 30_000,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof TargetError && /could not run/.test(error.message)) {
      throw new TargetError(`${what}: psql not found in ${options.pgBinDir ?? '(no bin dir)'} or on PATH (apt-get install postgresql-client-15)`);
    }
    throw error;
  }
}

interface Schema {
  ownerRoleId: number | undefined;
  ownerUserExists: boolean;
  defaultProject: boolean;
  roleUser: boolean;
  groupTables: boolean;
}

async function readSchema(options: SeedOptions): Promise<Schema> {
  const query = [
    'select',
    "  (select id from roles where name = 'Owner' and type = 'project'),",
    `  exists (select 1 from users where lower(email) = lower(${sqlText(options.ownerEmail)}) and deleted_at is null),`,
    "  exists (select 1 from projects where id = 'default'),",
    "  to_regclass('public.role_user') is not null,",
    "  to_regclass('public.groups') is not null and to_regclass('public.group_user') is not null",
    "    and exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = 'group_role' and column_name = 'project')",
  ].join('\n');
  const out = (await psql(options, 'reading the Unleash schema', ['-F', '|', '-c', query])).trim();
  const [role, user, project, roleUser, groups] = out.split('|');
  return {
    ownerRoleId: role ? Number(role) : undefined,
    ownerUserExists: user === 't',
    defaultProject: project === 't',
    roleUser: roleUser === 't',
    groupTables: groups === 't',
  };
}

/**
 * Writes the project owners that the open-source edition has no HTTP API for, with the same
 * rows its own services write (AccessStore.addUserToRole, GroupStore.create and addUsersToGroup,
 * AccessStore.addGroupToRole), then reads the projects list back to show that the server
 * serves them as its own. Nothing is seeded that the server would not serve.
 */
export async function seedDatabase(options: SeedOptions): Promise<DatabaseSeed> {
  const log = options.log ?? silentLogger;
  const result: DatabaseSeed = { seeded: [], skipped: [], notServable: [...NOT_SERVABLE], served: { userOwner: false, groupOwner: false } };

  const schema = await readSchema(options);
  if (schema.ownerRoleId === undefined) result.skipped.push('project owners: this schema has no project role named "Owner"');
  if (!schema.defaultProject) result.skipped.push('project owners: there is no project "default"');
  const canOwn = schema.ownerRoleId !== undefined && schema.defaultProject;

  const email = sqlText(options.ownerEmail);
  const statements: string[] = [];
  if (canOwn && schema.roleUser && schema.ownerUserExists) {
    statements.push(
      '-- user owner: the row AccessStore.addUserToRole(userId, ownerRoleId, "default") writes',
      'insert into role_user (role_id, user_id, project)',
      `  select ${schema.ownerRoleId}, id, 'default' from users where lower(email) = lower(${email}) and deleted_at is null`,
      '  on conflict do nothing;',
    );
    result.seeded.push(`user owner of "default": ${options.ownerEmail}`);
  } else if (canOwn) {
    result.skipped.push(schema.roleUser ? `user owner: no user with email ${options.ownerEmail}` : 'user owner: this schema has no role_user table');
  }
  if (canOwn && schema.groupTables) {
    statements.push(
      '-- group owner: GroupStore.create, GroupStore.addUsersToGroup, AccessStore.addGroupToRole',
      'with new_group as (',
      `  insert into groups (name, description, mappings_sso) values (${sqlText(GROUP_NAME)}, 'Owners of the default project', '[]') returning id`,
      '), members as (',
      `  insert into group_user (group_id, user_id, created_by)`,
      `    select new_group.id, users.id, ${sqlText(options.actingUsername)} from new_group, users where lower(users.email) = lower(${email}) and users.deleted_at is null`,
      ')',
      'insert into group_role (group_id, role_id, project, created_by)',
      `  select id, ${schema.ownerRoleId}, 'default', ${sqlText(options.actingUsername)} from new_group;`,
    );
    result.seeded.push(`group owner of "default": "${GROUP_NAME}"`);
  } else if (canOwn) {
    result.skipped.push('group owner: this schema has no groups/group_user/group_role(project) tables');
  }

  if (statements.length > 0) {
    result.sqlFile = path.join(options.runDir, 'seed-db.sql');
    fs.writeFileSync(result.sqlFile, `${statements.join('\n')}\n`, { mode: 0o600 });
    await psql(options, 'seeding the database', ['-1', '-f', result.sqlFile]);
  }
  for (const line of result.seeded) log(`seeded ${line}`);
  for (const line of result.skipped) log(`not seeded: ${line}`);

  const projectsPath = '/api/admin/projects';
  const res = await request(options.baseUrl, 'GET', projectsPath, { authorization: options.adminToken });
  result.check = {
    label: 'projects list after seeding the database',
    method: 'GET',
    path: projectsPath,
    status: res.status,
    contentType: res.contentType,
    body: res.json ?? res.text,
  };
  const projects = (res.json as { projects?: Array<{ id?: unknown; owners?: unknown }> } | undefined)?.projects ?? [];
  const owners = projects.find((p) => p.id === 'default')?.owners;
  const list = Array.isArray(owners) ? (owners as Array<Record<string, unknown>>) : [];
  result.served.userOwner = list.some((o) => o.ownerType === 'user' && o.email === options.ownerEmail);
  result.served.groupOwner = list.some((o) => o.ownerType === 'group' && o.name === GROUP_NAME);
  log(`GET ${projectsPath} -> ${res.status}; "default" lists the seeded user owner: ${result.served.userOwner}, group owner: ${result.served.groupOwner}`);
  for (const line of result.notServable) log(`not seedable (never served): ${line}`);
  return result;
}
