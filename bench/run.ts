// Child processes of the benchmarks: each in a process group of its own, bounded by a deadline, and the
// group killed once the command ends, so that nothing a run started outlives it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CI_MARKERS } from '../harness/config/ci.ts';

export const ROOT = path.join(__dirname, '../');
export const PLAYWRIGHT_CLI = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface Timed {
  wallMs: number;
  exitCode: number | null;
  /** True when the deadline passed and the group was killed. */
  timedOut: boolean;
  output: string;
}

/** The environment a user starts from, without any CONFORMANCE_ or PLAYWRIGHT_ setting of this shell. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const key of Object.keys(env))
    if (key.startsWith('CONFORMANCE_') || key.startsWith('PLAYWRIGHT_') || key === 'TEST_WORKER_INDEX' || (CI_MARKERS as readonly string[]).includes(key))
      delete env[key];
  return { ...env, ...extra };
}

// A worker stuck in synchronous code ignores the runner's stop and can outlive the run.
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

// Groups of their own do not hear a Ctrl-C in the terminal: the benchmark passes it on.
const live = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Kills every process group still running when this process is interrupted or terminated. */
export function killChildrenOnSignal(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    process.once(signal, () => {
      for (const child of live) killGroup(child);
      process.exit(code);
    });
  }
}

/** By default the last part of a command's output is kept: enough to say why it failed. */
const OUTPUT_KEPT = 20_000;

export function timeCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  deadlineMs: number,
  outputKept = OUTPUT_KEPT,
  /** Hears of the process once it started (to sample its tree's memory). */
  onSpawn?: (pid: number) => void,
): Promise<Timed> {
  const started = performance.now();
  const child = track(spawn(command, args, { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
  if (child.pid !== undefined) onSpawn?.(child.pid);
  let output = '';
  const keep = (d: Buffer) => (output = (output + d).slice(-outputKept));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let timedOut = false;
  const timer = setTimeout(() => ((timedOut = true), killGroup(child)), deadlineMs);
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      const wallMs = performance.now() - started;
      clearTimeout(timer);
      killGroup(child);
      resolve({ wallMs, exitCode, timedOut, output });
    });
  });
}

export interface Listening {
  child: ChildProcess;
  /** The first line the process printed, which names its address. */
  line: string;
}

/** Starts a TypeScript script that prints "port=<n>" once it listens; fails after `deadlineMs`. */
export function startListening(args: string[], deadlineMs: number): Promise<Listening> {
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'], detached: true }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (killGroup(child), reject(new Error(`${args.join(' ')} did not listen within ${deadlineMs / 1000} s`))), deadlineMs);
    let seen = '';
    child.stdout!.on('data', (d) => {
      seen += d;
      if (!/port=\d+/.test(seen)) return;
      clearTimeout(timer);
      resolve({ child, line: seen.split('\n')[0] });
    });
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`${args.join(' ')} exited (${code}) before listening`))));
  });
}

export function stop(listening: Listening): Promise<void> {
  const { child } = listening;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  killGroup(child);
  return exited;
}

const folders = new Set<string>();

/** A temporary folder, removed by `remove()` or, should the benchmark be interrupted, when it exits. */
export function temporaryFolder(prefix: string): { path: string; remove(): void } {
  if (folders.size === 0) process.once('exit', () => folders.forEach((f) => rmSync(f, { recursive: true, force: true })));
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.add(folder);
  return { path: folder, remove: () => (folders.delete(folder), rmSync(folder, { recursive: true, force: true })) };
}
