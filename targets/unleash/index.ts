import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { type NodeChoice, type UnleashInstall, cacheRoot, chooseNode, ensureUnleash } from './cache.js';
import { request } from './http.js';
import { type PostgresInfo, resolveBinDir, startPostgres } from './postgres.js';
import { DEFAULT_ADMIN_USER, type ProvisionResult, provision } from './provision.js';
import { type RunState, stopRun, stopRunSync, writeState } from './run-state.js';
import { SEED_ENV, seedDatabase, seedRequestedByEnv } from './seed-db.js';
import { type Logger, TargetError, freePort, isAlive, randomHex, sleep, stderrLogger, tailFile, throwIfAborted } from './util.js';

export { provision } from './provision.js';
export type { ProvisionResult } from './provision.js';

export interface StartOptions {
  /** Leave Unleash and PostgreSQL running after this process exits; stop them later with stop.ts. */
  keep?: boolean;
  /** Where to write the target YAML; defaults to `target.yaml` in the run's temp dir. */
  targetFile?: string;
  /** Overrides the cache root (default `${XDG_CACHE_HOME:-~/.cache}/admin-api-conformance`). */
  cacheDir?: string;
  log?: Logger;
  /** How long to wait for `/health` after starting Unleash (first boot runs all migrations). */
  healthTimeoutMs?: number;
  /**
   * On SIGINT/SIGTERM stop everything and exit (default true). With `keep` this
   * covers startup only. Without it a Ctrl-C would end the process without its
   * `exit` handlers running, leaving the servers for stop.ts to clean up.
   */
  handleSignals?: boolean;
  /** Override the PostgreSQL bin directory (default /usr/lib/postgresql/15/bin). */
  pgBinDir?: string;
  /** Aborting interrupts startup; whatever was already started is stopped before the promise rejects. */
  signal?: AbortSignal;
  /**
   * After provisioning, write the project owners the open-source edition has no HTTP API for
   * straight into the database (seed-db.ts). Default: the UNLEASH_TARGET_SEED_DB environment variable.
   */
  seedDatabase?: boolean;
}

export interface StartedUnleash {
  name: string;
  version: string;
  baseUrl: string;
  targetFile: string;
  runDir: string;
  unleashPid: number;
  adminToken: string;
  backendToken: string;
  frontendToken: string;
  node: NodeChoice;
  logs: { unleash: string; postgres: string };
  provisioned: ProvisionResult;
  timings: { installMs: number; postgresMs: number; unleashBootMs: number; provisionMs: number; totalMs: number };
  /** Stops Unleash, then PostgreSQL, and deletes the run's temp dir. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Renders the target file in the format the suite reads through CONFORMANCE_TARGET. */
export function renderTargetYaml(t: {
  name: string;
  baseUrl: string;
  adminToken: string;
  forbiddenToken?: string;
  signupTokens: string[];
}): string {
  const q = (s: string) => JSON.stringify(s);
  const lines = [`name: ${t.name}`, `baseUrl: ${t.baseUrl}`, `adminToken: ${q(t.adminToken)}`];
  if (t.forbiddenToken) lines.push(`forbiddenToken: ${q(t.forbiddenToken)}`);
  lines.push(`signupTokens: [${t.signupTokens.map(q).join(', ')}]   # live, expired, live with signed-up users`);
  const yaml = `${lines.join('\n')}\n`;
  const parsed = parseYaml(yaml) as Record<string, unknown>;
  if (parsed.adminToken !== t.adminToken || (parsed.signupTokens as unknown[]).length !== t.signupTokens.length) {
    throw new TargetError('internal error: the target file does not parse back to its values');
  }
  return yaml;
}

function unleashEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Unleash reads many variables (DATABASE_*, UNLEASH_*, INIT_*, HTTP_*...); none should leak in from the caller.
  const inherited = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR'];
  for (const key of inherited) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...vars };
}

async function waitForHealth(baseUrl: string, pid: number, logFile: string, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    throwIfAborted(signal);
    if (!isAlive(pid)) throw new TargetError('Unleash exited during startup', tailFile(logFile, 30));
    try {
      const res = await request(baseUrl, 'GET', '/health', { timeoutMs: 5_000 });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new TargetError(`Unleash did not answer /health within ${Math.round(timeoutMs / 1000)}s`, tailFile(logFile, 30));
}

function createRunDir(version: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `unleash-${version.replace(/[^0-9A-Za-z.-]/g, '_')}-`));
  // The postgres account must be able to reach its own subdirectory.
  fs.chmodSync(dir, 0o711);
  return dir;
}

/**
 * Starts a real Unleash (`unleash-server@<versionSpec>` from npm) on a fresh
 * PostgreSQL, provisions the fixtures and writes the target file.
 * Everything listens on 127.0.0.1 only.
 */
export async function startUnleash(versionSpec: string, options: StartOptions = {}): Promise<StartedUnleash> {
  const log = options.log ?? stderrLogger;
  const keep = options.keep ?? false;
  const root = cacheRoot(options.cacheDir);
  const t0 = Date.now();
  const controller = new AbortController();
  const signal = controller.signal;
  if (options.signal) {
    if (options.signal.aborted) controller.abort();
    else options.signal.addEventListener('abort', () => controller.abort(), { once: true });
  }
  const handleSignals = options.handleSignals ?? true;
  let startupDone = false;
  let interruptedBy: NodeJS.Signals | undefined;
  const exitCode = (s: NodeJS.Signals) => (s === 'SIGINT' ? 130 : 143);
  // Installed before anything slow starts, so that a Ctrl-C during the npm install is handled too.
  const signalHook = (received: NodeJS.Signals) => {
    log(`received ${received}; stopping`);
    if (!startupDone) {
      interruptedBy = received;
      controller.abort();
      return;
    }
    void stop().finally(() => process.exit(exitCode(received)));
  };
  if (handleSignals) {
    process.on('SIGINT', signalHook);
    process.on('SIGTERM', signalHook);
  }
  const removeSignalHooks = () => {
    if (handleSignals) {
      process.off('SIGINT', signalHook);
      process.off('SIGTERM', signalHook);
    }
  };

  let install: UnleashInstall;
  let node: NodeChoice;
  try {
    resolveBinDir(options.pgBinDir);
    install = await ensureUnleash(versionSpec, root, log, signal);
    node = await chooseNode(install, root, log, signal);
    throwIfAborted(signal);
  } catch (error) {
    removeSignalHooks();
    if (interruptedBy) process.exit(exitCode(interruptedBy));
    throw error;
  }
  const installMs = Date.now() - t0;
  log(`unleash-server@${install.version} ${install.cached ? 'from cache' : 'installed'}; Node ${node.version} (${node.source})`);

  const runDir = createRunDir(install.version);
  const state: RunState = {
    id: path.basename(runDir),
    name: `unleash-${install.version}`,
    version: install.version,
    runDir,
    keep,
    ownerPid: process.pid,
    startedAt: new Date().toISOString(),
  };
  writeState(root, state);

  let stopped = false;
  const exitHook = () => {
    if (!stopped) stopRunSync(root, state);
  };
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', exitHook);
    removeSignalHooks();
    await stopRun(root, state, log);
  };
  // Until startup has finished, even a --keep run must not leave half-started servers behind.
  process.on('exit', exitHook);

  try {
    const tPg = Date.now();
    const pg: PostgresInfo = await startPostgres(
      runDir,
      log,
      (info) => {
        state.postgres = { binDir: info.binDir, dataDir: info.dataDir, asPostgres: info.asPostgres, logFile: info.logFile };
        writeState(root, state);
      },
      options.pgBinDir,
      signal,
    );
    throwIfAborted(signal);
    const postgresMs = Date.now() - tPg;

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const adminToken = `*:*.${randomHex(24)}`;
    const backendToken = `default:development.${randomHex(24)}`;
    const frontendToken = `default:development.${randomHex(24)}`;
    const logFile = path.join(runDir, 'unleash.log');

    const env = unleashEnv({
      NODE_ENV: 'production',
      DATABASE_URL: pg.databaseUrl,
      DATABASE_SSL: 'false',
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: String(port),
      UNLEASH_URL: baseUrl,
      CHECK_VERSION: 'false',
      SEND_TELEMETRY: 'false',
      LOG_LEVEL: 'info',
      INIT_ADMIN_API_TOKENS: adminToken,
      // 7.x and later read INIT_BACKEND_API_TOKENS; 6.x only knows INIT_CLIENT_API_TOKENS.
      INIT_BACKEND_API_TOKENS: backendToken,
      INIT_CLIENT_API_TOKENS: backendToken,
      INIT_FRONTEND_API_TOKENS: frontendToken,
    });

    log(`starting Unleash ${install.version} on ${baseUrl} (log: ${logFile})`);
    const tBoot = Date.now();
    const logFd = fs.openSync(logFile, 'a', 0o600);
    const child = spawn(node.nodeBin, [install.serverJs], {
      cwd: install.dir,
      env,
      detached: true,
      stdio: ['ignore', logFd, logFd],
    });
    fs.closeSync(logFd);
    const pid = child.pid;
    if (!pid) throw new TargetError(`could not start ${node.nodeBin}`);
    child.unref();
    state.unleash = { pid, serverJs: install.serverJs, logFile };
    state.baseUrl = baseUrl;
    writeState(root, state);

    await waitForHealth(baseUrl, pid, logFile, options.healthTimeoutMs ?? 240_000, signal);
    const unleashBootMs = Date.now() - tBoot;
    log(`Unleash is healthy after ${(unleashBootMs / 1000).toFixed(1)}s; provisioning fixtures`);

    const tProv = Date.now();
    const provisioned = await provision({ baseUrl, adminToken, backendToken, frontendToken, log });
    if (options.seedDatabase ?? seedRequestedByEnv()) {
      const owner = provisioned.signedUpUsers[1];
      log(`seeding the database (${options.seedDatabase === undefined ? SEED_ENV : 'seedDatabase'}): project owners, which the open-source edition has no HTTP API for`);
      if (owner) {
        const seed = await seedDatabase({
          databaseUrl: pg.databaseUrl,
          pgBinDir: pg.binDir,
          runDir,
          baseUrl,
          adminToken,
          ownerEmail: owner.email,
          actingUsername: DEFAULT_ADMIN_USER.username,
          log,
          signal,
        });
        provisioned.databaseSeed = seed;
        for (const line of seed.skipped) provisioned.notes.push(`database seed skipped: ${line}`);
        for (const line of seed.seeded) {
          const served = line.startsWith('user') ? seed.served.userOwner : seed.served.groupOwner;
          if (!served) provisioned.notes.push(`seeded but not served by GET /api/admin/projects: ${line}`);
        }
      } else {
        provisioned.notes.push('database seed skipped: no signed-up user to make a project owner');
      }
    }
    const provisionMs = Date.now() - tProv;
    throwIfAborted(signal);

    const name = `unleash-${install.version}`;
    const targetFile = path.resolve(options.targetFile ?? path.join(runDir, 'target.yaml'));
    fs.mkdirSync(path.dirname(targetFile), { recursive: true });
    fs.writeFileSync(
      targetFile,
      renderTargetYaml({
        name,
        baseUrl,
        adminToken,
        forbiddenToken: provisioned.forbiddenToken,
        signupTokens: provisioned.signupTokenList,
      }),
      { mode: 0o600 },
    );
    fs.writeFileSync(path.join(runDir, 'provisioned.json'), `${JSON.stringify(provisioned, null, 2)}\n`, { mode: 0o600 });
    state.targetFile = targetFile;
    writeState(root, state);
    if (keep) {
      process.off('exit', exitHook);
      removeSignalHooks();
    }
    startupDone = true;

    return {
      name,
      version: install.version,
      baseUrl,
      targetFile,
      runDir,
      unleashPid: pid,
      adminToken,
      backendToken,
      frontendToken,
      node,
      logs: { unleash: logFile, postgres: pg.logFile },
      provisioned,
      timings: { installMs, postgresMs, unleashBootMs, provisionMs, totalMs: Date.now() - t0 },
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    if (interruptedBy) process.exit(exitCode(interruptedBy));
    throw error;
  }
}
