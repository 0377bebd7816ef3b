import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { noteRun, PROJECT_ROOT } from './run-suite.ts';
import { SCRATCH_VARIABLE } from './scratch-root.ts';
import { CI_MARKERS } from '../../harness/config/ci.ts';

/** What a command printed and how it ended. */
export interface CommandRun {
  exitCode: number | null;
  output: string;
}

/** Variables of the developer's shell that would leak into a user's: the user's shell has none of them. */
const CLEARED = (key: string) =>
  key.startsWith('CONFORMANCE_') ||
  key.startsWith('PLAYWRIGHT_') ||
  key.startsWith('ADMIN_API_CONFORMANCE_') ||
  key.startsWith('GITHUB_') ||
  ['TEST_WORKER_INDEX', 'NODE_OPTIONS'].includes(key) ||
  (CI_MARKERS as readonly string[]).includes(key);

/** The environment a user's shell or CI job starts from, plus `extra`. */
export function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !CLEARED(k))), FORCE_COLOR: '0', ...extra };
}

/**
 * Runs a command as a user would, bounded in time. It is noted as a run of the suite (noteRun) unless `suite` is
 * false: grep and tar read what a run wrote, npm installing the suite and a CI step that only installs it or reads
 * its outputs start no run of it, nor does a shell whose suite's command stands in (support/stand-in.ts); anything
 * else runs the suite, as a command, a script or a CI step.
 */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  suite = !['grep', 'tar'].includes(command),
): Promise<CommandRun> {
  const started = Date.now();
  const child = spawn(command, args, { cwd, env: userEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      if (suite) noteRun(started, exitCode, output);
      resolve({ exitCode, output });
    }),
  );
}

/** Runs `work` while holding a lock folder: packing rebuilds dist/, which two test workers must not do at once. */
function withLock<T>(lock: string, work: () => T): T {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${lock} is held for too long`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const tarballIn = (dir: string) => readdirSync(dir).find((f) => f.endsWith('.tgz'));

/**
 * `npm pack` of this project, as it would be published: the path of the tarball. Packed once per self-test run
 * (in its scratch folder, which every worker shares): the sources do not change while it runs, and each pack
 * builds dist/ again.
 */
export function pack(): string {
  const scratch = process.env[SCRATCH_VARIABLE];
  const dir = scratch ? path.join(scratch, 'package') : mkdtempSync(path.join(os.tmpdir(), 'conformance-pack-'));
  withLock(path.join(PROJECT_ROOT, '.pack.lock'), () => {
    if (existsSync(dir) && tarballIn(dir) !== undefined) return;
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: PROJECT_ROOT, env: userEnv({}), stdio: 'ignore' });
  });
  return path.join(dir, tarballIn(dir)!);
}

/** An empty folder with no access to this repository, where the tarball is installed as a user would. */
export async function installInEmptyFolder(tarball: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-user-'));
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], dir, {}, 120_000, false);
  if (installed.exitCode !== 0) throw new Error(`npm install of the tarball failed:\n${installed.output}`);
  return dir;
}
