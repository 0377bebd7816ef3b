import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pgCommand, readPostmasterPid } from './postgres.js';
import { type Logger, errorMessage, isAlive, killGroup, run, sleep } from './util.js';

/**
 * Everything needed to tear a run down from another process: `stop.ts` reads
 * these records, which is how `--keep` runs and runs whose owner was killed get cleaned up.
 */
export interface RunState {
  id: string;
  name: string;
  version: string;
  runDir: string;
  keep: boolean;
  ownerPid: number;
  startedAt: string;
  baseUrl?: string;
  targetFile?: string;
  unleash?: { pid: number; serverJs: string; logFile: string };
  postgres?: { binDir: string; dataDir: string; asPostgres: boolean; logFile: string };
}

export function runsDir(root: string): string {
  return path.join(root, 'runs');
}

function statePath(root: string, id: string): string {
  return path.join(runsDir(root), `${id}.json`);
}

export function writeState(root: string, state: RunState): void {
  fs.mkdirSync(runsDir(root), { recursive: true });
  const file = statePath(root, state.id);
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
}

export function removeState(root: string, id: string): void {
  fs.rmSync(statePath(root, id), { force: true });
}

export function listStates(root: string): RunState[] {
  let names: string[];
  try {
    names = fs.readdirSync(runsDir(root));
  } catch {
    return [];
  }
  const states: RunState[] = [];
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    try {
      states.push(JSON.parse(fs.readFileSync(path.join(runsDir(root), name), 'utf8')) as RunState);
    } catch {
      // a half-written or foreign file: not ours to act on
    }
  }
  return states;
}

/** Guards against signalling an unrelated process that reused a recorded pid. */
function commandLineContains(pid: number, needle: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(needle);
  } catch {
    return !fs.existsSync('/proc/self/cmdline') && isAlive(pid);
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(200);
  }
  return !isAlive(pid);
}

async function stopUnleash(state: RunState, log: Logger): Promise<void> {
  const u = state.unleash;
  if (!u || !isAlive(u.pid) || !commandLineContains(u.pid, u.serverJs)) return;
  log(`stopping Unleash (pid ${u.pid})`);
  killGroup(u.pid, 'SIGTERM');
  if (await waitForExit(u.pid, 15_000)) return;
  log('Unleash did not stop within 15s; killing it');
  killGroup(u.pid, 'SIGKILL');
  await waitForExit(u.pid, 5_000);
}

async function stopPostgres(state: RunState, log: Logger): Promise<void> {
  const pg = state.postgres;
  if (!pg) return;
  const pid = readPostmasterPid(pg.dataDir);
  if (!pid || !isAlive(pid)) return;
  log(`stopping PostgreSQL (pid ${pid})`);
  const [cmd, args] = pgCommand(pg.binDir, pg.asPostgres, 'pg_ctl', ['-D', pg.dataDir, '-m', 'fast', '-w', '-t', '30', 'stop']);
  try {
    const result = await run(cmd, args, { timeoutMs: 45_000, cwd: '/' });
    if (result.code === 0 && (await waitForExit(pid, 5_000))) return;
  } catch (error) {
    log(`pg_ctl stop failed: ${errorMessage(error)}`);
  }
  if (isAlive(pid) && commandLineContains(pid, pg.dataDir)) {
    log('PostgreSQL did not stop cleanly; killing it');
    killGroup(pid, 'SIGKILL');
    await waitForExit(pid, 5_000);
  }
}

/** Stops Unleash, then PostgreSQL, deletes the run's temp dir and forgets the run. */
export async function stopRun(root: string, state: RunState, log: Logger): Promise<void> {
  await stopUnleash(state, log);
  await stopPostgres(state, log);
  fs.rmSync(state.runDir, { recursive: true, force: true });
  removeState(root, state.id);
}

/**
 * Synchronous last resort for the process `exit` event, where nothing asynchronous
 * runs any more: no graceful shutdown, only making sure nothing is left behind.
 */
export function stopRunSync(root: string, state: RunState): void {
  const u = state.unleash;
  if (u && isAlive(u.pid) && commandLineContains(u.pid, u.serverJs)) killGroup(u.pid, 'SIGKILL');
  const pg = state.postgres;
  if (pg) {
    const pid = readPostmasterPid(pg.dataDir);
    if (pid && isAlive(pid)) {
      const [cmd, args] = pgCommand(pg.binDir, pg.asPostgres, 'pg_ctl', ['-D', pg.dataDir, '-m', 'immediate', '-w', '-t', '20', 'stop']);
      spawnSync(cmd, args, { timeout: 30_000, stdio: 'ignore', cwd: '/' });
      if (isAlive(pid) && commandLineContains(pid, pg.dataDir)) killGroup(pid, 'SIGKILL');
    }
  }
  fs.rmSync(state.runDir, { recursive: true, force: true });
  removeState(root, state.id);
}
