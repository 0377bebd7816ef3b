import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installUnleash } from './cache.ts';
import { DEVIATIONS_FILE } from './deviations.ts';
import { checkPostgres, freePort, runSqlFile, startPostgres, stopCommand } from './postgres.ts';
import { ADMIN_USER, backendTokenOf, type Fixtures, ownersListed, provision, waitUntilReady } from './provision.ts';
import { atInterrupt, log, startServer, stopServer, tail } from './supervisor.ts';

const SEED_OWNERS = path.join(__dirname, 'seed-owners.sql');

/** One Unleash version on its own PostgreSQL, in its own temp folder, provisioned. */
export interface Run {
  version: string;
  /** The target's name in the suite's reports: `unleash-<version>`, `-strict-schema` after it for Unleash's strict validation. */
  name: string;
  folder: string;
  targetFile: string;
  /** What this version could not be given (provision.ts), each in words. */
  missing: string[];
  /** The Node.js that runs it, as its `engines` asks (cache.ts). */
  nodeBin?: string;
  unleash?: ChildProcess;
  postgres?: ChildProcess;
  /** Stops Unleash, then PostgreSQL, and removes the folder; only this run's. */
  stop(): Promise<void>;
  /** The same as one shell line, for a run that outlives this process (--keep). */
  stopCommand(): string;
  /** Leaves the run to outlive this process: a signal no longer stops it. */
  keep(): void;
}

/** Unleash reads many variables (DATABASE_*, INIT_*, ...): none may come in from the caller. */
function unleashEnv(variables: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR'].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]);
  return { ...Object.fromEntries(inherited), ...variables };
}

const quote = (text: string) => (/^[\w./@:=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

function newRun(version: string, name: string): Run {
  const folder = mkdtempSync(path.join(os.tmpdir(), `unleash-${version}-`));
  // The postgres account must reach its own subfolder.
  chmodSync(folder, 0o711);
  let stopping: Promise<void> | undefined;
  const run: Run = {
    version,
    name,
    folder,
    targetFile: path.join(folder, 'target.yaml'),
    missing: [],
    stop: () => (stopping ??= stopRun(run)),
    stopCommand: () =>
      [
        `kill ${run.unleash?.pid}`,
        stopCommand(path.join(folder, 'pg', 'data'))
          .map(quote)
          .join(' '),
        `rm -rf ${quote(folder)}`,
      ].join('; '),
    keep: () => withdraw(),
  };
  const withdraw = atInterrupt(run.stop);
  return run;
}

async function stopRun(run: Run): Promise<void> {
  log(`stopping ${run.name}`);
  await stopServer(run.unleash?.pid, 'SIGTERM');
  // SIGINT is PostgreSQL's fast shutdown: it ends the sessions and stops at once.
  await stopServer(run.postgres?.pid, 'SIGINT');
  rmSync(run.folder, { recursive: true, force: true, maxRetries: 3 });
}

/** The profiles the inputs provisioned allow: signup tokens give two, a token refused both operations another. */
export function claimOf(fixtures: Fixtures, backendToken: string | undefined, owners: boolean): string[] {
  return [
    'core',
    ...(owners ? ['projects-data'] : []),
    ...(fixtures.signupTokens.length > 0 ? ['signup-tokens', 'expired-token'] : []),
    ...(backendToken === undefined ? [] : ['forbidden']),
  ];
}

function targetFile(run: Run, baseUrl: string, adminToken: string, backendToken: string | undefined, fixtures: Fixtures, owners: boolean): string {
  const q = JSON.stringify;
  const { signupTokens, viewerToken } = fixtures;
  return [
    `name: ${run.name}`,
    `baseUrl: ${baseUrl}`,
    `adminToken: ${q(adminToken)}`,
    ...(backendToken === undefined ? [] : [`forbiddenToken: ${q(backendToken)}   # a backend API token: refused on both operations`]),
    ...(viewerToken === undefined
      ? []
      : [`forbiddenTokenSignup: ${q(viewerToken)}   # a Viewer's personal access token: refused the signup token, may list projects`]),
    ...(signupTokens.length === 0 ? [] : [`signupTokens: [${signupTokens.map((t) => q(t)).join(', ')}]   # live, expired, live with signed-up users`]),
    `deviations: ${q(DEVIATIONS_FILE)}   # each entry names the versions it applies to`,
    // Every profile the inputs allow but user-dates: the users of Unleash's signup tokens carry neither seenAt nor createdAt.
    `claim: [${claimOf(fixtures, backendToken, owners).join(', ')}]   # what this version's inputs allow; never user-dates: users of signup tokens have no seenAt or createdAt here`,
    ...fixtures.missing.map((m) => `# not provided by this version: ${m}`),
    'openapiPath: /docs/openapi.json   # Unleash publishes its own description here; its drift from the document is observed',
    'readProductVersion: unleash   # GET /api/admin/ui-config: the version, a fact recorded outside the document',
    'product:',
    '  name: Unleash (open-source unleash-server)',
    '',
  ].join('\n');
}

/**
 * Starts unleash-server `spec` (a version, or a range such as 7.x) on a fresh PostgreSQL, both on
 * 127.0.0.1 only, provisions it and writes its target file. A failure stops whatever had started.
 */
export async function startRun(spec: string, options: { seed: boolean; strict?: boolean }): Promise<Run> {
  checkPostgres();
  const install = await installUnleash(spec);
  const run = newRun(install.version, `unleash-${install.version}${options.strict ? '-strict-schema' : ''}`);
  run.nodeBin = install.nodeBin;
  try {
    const db = await startPostgres(run.folder, (server) => (run.postgres = server));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const adminToken = `*:*.${randomBytes(24).toString('hex')}`;
    const backendToken = `default:development.${randomBytes(24).toString('hex')}`;
    const logFile = path.join(run.folder, 'unleash.log');
    const logFd = openSync(logFile, 'a', 0o600);
    log(`starting Unleash ${install.version} on ${baseUrl} (log: ${logFile})`);
    run.unleash = startServer(install.nodeBin, [install.serverJs], {
      cwd: path.dirname(path.dirname(install.serverJs)),
      logFd,
      env: unleashEnv({
        NODE_ENV: 'production',
        DATABASE_URL: db.databaseUrl,
        DATABASE_SSL: 'false',
        HTTP_HOST: '127.0.0.1',
        HTTP_PORT: String(port),
        UNLEASH_URL: baseUrl,
        CHECK_VERSION: 'false',
        SEND_TELEMETRY: 'false',
        INIT_ADMIN_API_TOKENS: adminToken,
        // 7.x and 8.x read INIT_BACKEND_API_TOKENS; 6.x knows only INIT_CLIENT_API_TOKENS.
        INIT_BACKEND_API_TOKENS: backendToken,
        INIT_CLIENT_API_TOKENS: backendToken,
        // 5.12 lists project owners only behind this flag (6.0 always): every input the version can give.
        UNLEASH_EXPERIMENTAL_PROJECTS_LIST_NEW_CARDS: 'true',
        // Unleash's own check of its answers against its own schemas, a second oracle: a 500 for an answer that breaks one (sic).
        ...(options.strict ? { UNLEASH_STRICT_SCHEMA_VALIDTION: 'true' } : {}),
      }),
    });
    closeSync(logFd);
    const unleash = run.unleash;
    const acceptedToken = await waitUntilReady(baseUrl, adminToken, () => unleash.exitCode !== null || unleash.signalCode !== null).catch((error: Error) => {
      throw new Error(`${error.message}\n${tail(readFileSync(logFile, 'utf8'))}`);
    });
    const fixtures = await provision(baseUrl, acceptedToken);
    const backend = await backendTokenOf(baseUrl, acceptedToken, backendToken);
    if (backend === undefined) fixtures.missing.push('a backend API token refused both operations');
    if (options.seed && fixtures.ownerEmail === undefined) fixtures.missing.push('project owners: no signed-up user to make one');
    if (options.seed && fixtures.ownerEmail !== undefined) {
      log('seeding the owners of "default" in the database (seed-owners.sql): the open-source edition has no API for them');
      // An older schema may lack what the file writes (groups, roles by project): then this version has no owners.
      await runSqlFile(db, SEED_OWNERS, { owner_email: fixtures.ownerEmail, acting_user: ADMIN_USER.username, group_name: 'Conformance owners' }).catch(
        (error: Error) => fixtures.missing.push(`project owners: seed-owners.sql failed on this schema (${error.message.split('\n')[0]})`),
      );
    }
    const owners = await ownersListed(baseUrl, acceptedToken);
    if (!owners)
      fixtures.missing.push('project owners in the projects list (Unleash lists them from 5.12, behind a flag until 6.0): projects-data is not claimed');
    run.missing = fixtures.missing;
    writeFileSync(run.targetFile, targetFile(run, baseUrl, acceptedToken, backend, fixtures, owners), { mode: 0o600 });
    return run;
  } catch (error) {
    await run.stop();
    throw error;
  }
}
