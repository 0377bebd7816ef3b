import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installUnleash } from './cache.ts';
import { DEVIATIONS_FILE } from './deviations.ts';
import { checkPostgres, freePort, runSqlFile, startPostgres, stopCommand } from './postgres.ts';
import { ADMIN_USER, provision, waitUntilReady } from './provision.ts';
import { atInterrupt, log, startServer, stopServer, tail } from './supervisor.ts';

const SEED_OWNERS = path.join(__dirname, 'seed-owners.sql');

/** One Unleash version on its own PostgreSQL, in its own temp folder, provisioned. */
export interface Run {
  version: string;
  /** The target's name in the suite's reports: `unleash-<version>`. */
  name: string;
  folder: string;
  targetFile: string;
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

function newRun(version: string): Run {
  const folder = mkdtempSync(path.join(os.tmpdir(), `unleash-${version}-`));
  // The postgres account must reach its own subfolder.
  chmodSync(folder, 0o711);
  let stopping: Promise<void> | undefined;
  const run: Run = {
    version,
    name: `unleash-${version}`,
    folder,
    targetFile: path.join(folder, 'target.yaml'),
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

function targetFile(run: Run, baseUrl: string, adminToken: string, backendToken: string, viewerToken: string, signupTokens: string[]): string {
  const q = JSON.stringify;
  return [
    `name: ${run.name}`,
    `baseUrl: ${baseUrl}`,
    `adminToken: ${q(adminToken)}`,
    `forbiddenToken: ${q(backendToken)}   # a backend API token: refused on both operations`,
    `forbiddenTokenSignup: ${q(viewerToken)}   # a Viewer's personal access token: refused the signup token, may list projects`,
    `signupTokens: [${signupTokens.map((t) => q(t)).join(', ')}]   # live, expired, live with signed-up users`,
    `deviations: ${q(DEVIATIONS_FILE)}   # each entry names the versions it applies to`,
    // Every profile but user-dates: the users of Unleash's signup tokens carry neither seenAt nor createdAt.
    'claim: [core, projects-data, signup-tokens, expired-token, forbidden]   # users of signup tokens have no seenAt or createdAt here',
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
export async function startRun(spec: string, options: { seed: boolean }): Promise<Run> {
  checkPostgres();
  const install = await installUnleash(spec);
  const run = newRun(install.version);
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
      }),
    });
    closeSync(logFd);
    const unleash = run.unleash;
    await waitUntilReady(baseUrl, adminToken, () => unleash.exitCode !== null || unleash.signalCode !== null).catch((error: Error) => {
      throw new Error(`${error.message}\n${tail(readFileSync(logFile, 'utf8'))}`);
    });
    const fixtures = await provision(baseUrl, adminToken);
    if (options.seed) {
      log('seeding the owners of "default" in the database (seed-owners.sql): the open-source edition has no API for them');
      await runSqlFile(db, SEED_OWNERS, { owner_email: fixtures.ownerEmail, acting_user: ADMIN_USER.username, group_name: 'Conformance owners' });
    }
    writeFileSync(run.targetFile, targetFile(run, baseUrl, adminToken, backendToken, fixtures.viewerToken, fixtures.signupTokens), { mode: 0o600 });
    return run;
  } catch (error) {
    await run.stop();
    throw error;
  }
}
