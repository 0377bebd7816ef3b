import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { type Account, runChecked, sleep, startServer, tail } from './supervisor.ts';

const BIN_DIR = process.env.UNLEASH_TARGET_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** PostgreSQL refuses to run as root; then it runs as the postgres account. */
function account(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  return { uid: id('-u'), gid: id('-g') };
}

export interface Postgres {
  server: ChildProcess;
  dataDir: string;
  socketDir: string;
  port: number;
  databaseUrl: string;
}

export function checkPostgres(): void {
  if (!existsSync(path.join(BIN_DIR, 'postgres')))
    throw new Error(`PostgreSQL 15 is not in ${BIN_DIR} (apt-get install postgresql-15, or set UNLEASH_TARGET_PG_BIN)`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** pg_ctl's line that stops the cluster of `dataDir`, as a shell command for a run that outlives this process. */
export function stopCommand(dataDir: string): string[] {
  const pgCtl = [path.join(BIN_DIR, 'pg_ctl'), '-D', dataDir, '-m', 'fast', '-w', 'stop'];
  return account() ? ['runuser', '-u', 'postgres', '--', ...pgCtl] : pgCtl;
}

/** PostgreSQL marks its pid file "ready" once it accepts connections. */
async function waitUntilReady(server: ChildProcess, dataDir: string, logFile: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    if (server.exitCode !== null || server.signalCode !== null) break;
    if (existsSync(path.join(dataDir, 'postmaster.pid')) && readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').includes('ready')) return;
  }
  throw new Error(`PostgreSQL did not start\n${tail(readFileSync(logFile, 'utf8'))}`);
}

/**
 * A throw-away cluster in `folder/pg`, on 127.0.0.1 only, with a database and role `unleash`. `onServer`
 * gets the server as soon as it is spawned, so that a signal at any later moment stops it.
 */
export async function startPostgres(folder: string, onServer: (server: ChildProcess) => void): Promise<Postgres> {
  const user = account();
  const socketDir = path.join(folder, 'pg');
  const dataDir = path.join(socketDir, 'data');
  const passwordFile = path.join(socketDir, 'password');
  const password = randomBytes(16).toString('hex');
  mkdirSync(socketDir, { mode: 0o700 });
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user) for (const file of [socketDir, passwordFile]) chownSync(file, user.uid, user.gid);
  const initdb = [
    '-D',
    dataDir,
    '-U',
    'unleash',
    `--pwfile=${passwordFile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ];
  await runChecked('initdb', path.join(BIN_DIR, 'initdb'), initdb, { cwd: socketDir, user, timeoutMs: 120_000 });
  rmSync(passwordFile);
  const port = await freePort();
  // Durability is pointless for a cluster deleted afterwards; without it Unleash's migrations run faster.
  const settings = [
    `listen_addresses = '127.0.0.1'`,
    `port = ${port}`,
    `unix_socket_directories = '${socketDir}'`,
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
  ];
  appendFileSync(path.join(dataDir, 'postgresql.conf'), `\n${settings.join('\n')}\n`);
  const logFile = path.join(socketDir, 'postgres.log');
  const logFd = openSync(logFile, 'a', 0o600);
  if (user) chownSync(logFile, user.uid, user.gid);
  const server = startServer(path.join(BIN_DIR, 'postgres'), ['-D', dataDir], { cwd: socketDir, env: { PATH: process.env.PATH, LC_ALL: 'C' }, logFd, user });
  closeSync(logFd);
  onServer(server);
  await waitUntilReady(server, dataDir, logFile);
  await runChecked('createdb unleash', path.join(BIN_DIR, 'createdb'), ['-h', socketDir, '-p', String(port), '-U', 'unleash', 'unleash'], {
    timeoutMs: 60_000,
  });
  return { server, dataDir, socketDir, port, databaseUrl: `postgres://unleash:${password}@127.0.0.1:${port}/unleash` };
}

/** Runs a file of SQL in one transaction; `variables` become psql variables (`:'name'` in the file). */
export async function runSqlFile(db: Postgres, file: string, variables: Record<string, string>): Promise<void> {
  const vars = Object.entries(variables).flatMap(([name, value]) => ['-v', `${name}=${value}`]);
  const connection = ['-h', db.socketDir, '-p', String(db.port), '-U', 'unleash', '-d', 'unleash'];
  await runChecked(
    `psql -f ${path.basename(file)}`,
    path.join(BIN_DIR, 'psql'),
    ['-X', '-q', '-1', '-v', 'ON_ERROR_STOP=1', ...vars, ...connection, '-f', file],
    {
      env: { PATH: process.env.PATH, LC_ALL: 'C' },
      timeoutMs: 60_000,
    },
  );
}
