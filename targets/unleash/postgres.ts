import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type Logger, TargetError, freePort, randomHex, runChecked, tailFile } from './util.js';

export const DEFAULT_PG_BIN_DIR = '/usr/lib/postgresql/15/bin';

export interface PostgresInfo {
  binDir: string;
  dataDir: string;
  socketDir: string;
  logFile: string;
  /** True when the tools run through `runuser -u postgres`, because initdb refuses to run as root. */
  asPostgres: boolean;
  port: number;
  pid?: number;
  databaseUrl: string;
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function postgresAccount(): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new TargetError('running as root but there is no "postgres" account to run PostgreSQL as (apt-get install postgresql-15)');
  }
}

/** Command line for a PostgreSQL tool, switched to the postgres account when we are root. */
export function pgCommand(binDir: string, asPostgres: boolean, tool: string, args: string[]): [string, string[]] {
  const exe = path.join(binDir, tool);
  if (asPostgres) return ['runuser', ['-u', 'postgres', '--', exe, ...args]];
  return [exe, args];
}

function pgEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('PG')) env[key] = value;
  }
  env.LC_ALL = 'C';
  return env;
}

/** Fails fast, before any slow install, when the PostgreSQL tools are missing. */
export function resolveBinDir(explicit?: string): string {
  const binDir = explicit ?? process.env.UNLEASH_TARGET_PG_BIN ?? DEFAULT_PG_BIN_DIR;
  if (!fs.existsSync(path.join(binDir, 'initdb')) || !fs.existsSync(path.join(binDir, 'pg_ctl'))) {
    throw new TargetError(`PostgreSQL tools not found in ${binDir} (apt-get install postgresql-15, or set UNLEASH_TARGET_PG_BIN)`);
  }
  return binDir;
}

/**
 * Creates a throw-away cluster under `runDir/pg`, listening on 127.0.0.1 only,
 * and a database `unleash` owned by the role `unleash`.
 * `onStarted` is called as soon as a server process may exist, so the caller can
 * record it for cleanup even if a later step fails.
 */
export async function startPostgres(
  runDir: string,
  log: Logger,
  onStarted: (info: PostgresInfo) => void,
  binDirOverride?: string,
  signal?: AbortSignal,
): Promise<PostgresInfo> {
  const binDir = resolveBinDir(binDirOverride);
  const asPostgres = isRoot();
  const pgDir = path.join(runDir, 'pg');
  const dataDir = path.join(pgDir, 'data');
  const logFile = path.join(pgDir, 'postgres.log');
  const pwFile = path.join(pgDir, 'pwfile');
  const password = randomHex(16);

  fs.mkdirSync(pgDir, { mode: 0o700 });
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (asPostgres) {
    const { uid, gid } = postgresAccount();
    fs.chownSync(pgDir, uid, gid);
    fs.chownSync(pwFile, uid, gid);
  }

  const tool = async (what: string, name: string, args: string[], timeoutMs: number) => {
    const [cmd, argv] = pgCommand(binDir, asPostgres, name, args);
    return runChecked(what, cmd, argv, { cwd: pgDir, env: pgEnv(), timeoutMs, signal });
  };

  log('initialising a throw-away PostgreSQL cluster');
  await tool(
    'PostgreSQL initdb',
    'initdb',
    [
      '-D', dataDir,
      '-U', 'unleash',
      `--pwfile=${pwFile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ],
    120_000,
  );
  fs.rmSync(pwFile, { force: true });

  const port = await freePort();
  // Durability is pointless for a cluster that is deleted afterwards; turning it off speeds up Unleash's migrations.
  const settings = [
    '',
    "listen_addresses = '127.0.0.1'",
    `port = ${port}`,
    `unix_socket_directories = '${pgDir}'`,
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
    'max_connections = 50',
    '',
  ].join('\n');
  fs.appendFileSync(path.join(dataDir, 'postgresql.conf'), settings);

  const info: PostgresInfo = {
    binDir,
    dataDir,
    socketDir: pgDir,
    logFile,
    asPostgres,
    port,
    databaseUrl: `postgres://unleash:${password}@127.0.0.1:${port}/unleash`,
  };
  onStarted(info);

  log(`starting PostgreSQL on 127.0.0.1:${port}`);
  try {
    await tool('PostgreSQL start', 'pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '90', 'start'], 120_000);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new TargetError((error as Error).message, tailFile(logFile));
  }
  info.pid = readPostmasterPid(dataDir);

  try {
    await tool('createdb unleash', 'createdb', ['-h', pgDir, '-p', String(port), '-U', 'unleash', 'unleash'], 60_000);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new TargetError((error as Error).message, tailFile(logFile));
  }
  return info;
}

export function readPostmasterPid(dataDir: string): number | undefined {
  try {
    const first = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
    const pid = Number(first);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
