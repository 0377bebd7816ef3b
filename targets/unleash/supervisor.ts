import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';

/**
 * The one supervisor of everything this tool starts: the commands it waits for (npm, initdb, psql, the
 * suite) and, through the cleanups runs register, the servers it leaves running (PostgreSQL, Unleash).
 * SIGINT or SIGTERM ends the commands, runs the cleanups and exits 130 or 143; nothing else is signalled.
 */
const commands = new Set<ChildProcess>();
const cleanups = new Set<() => Promise<void>>();
let interrupted = false;

export const log = (message: string) => process.stderr.write(`[unleash] ${message}\n`);

/** True once a signal arrived: whatever fails after that failed because it was stopped, not by itself. */
export const isInterrupted = () => interrupted;

export class CommandError extends Error {
  constructor(
    message: string,
    readonly output = '',
  ) {
    super(output.trim() ? `${message}\n${tail(output)}` : message);
  }
}

export function tail(text: string, lines = 20): string {
  return text
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((l) => `  | ${l}`)
    .join('\n');
}

/** Registers what stops a run on a signal; the returned function withdraws it (a run kept, or already stopped). */
export function atInterrupt(cleanup: () => Promise<void>): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

async function onSignal(signal: NodeJS.Signals): Promise<void> {
  if (interrupted) return;
  interrupted = true;
  log(`${signal}: stopping`);
  for (const child of commands) child.kill('SIGTERM');
  // A folder is removed only once the command writing into it (npm, initdb) has ended.
  for (let waited = 0; commands.size > 0 && waited < 10_000; waited += 100) await sleep(100);
  await Promise.all([...cleanups].map((cleanup) => cleanup().catch((error: Error) => log(error.message))));
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

export function handleSignals(): void {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** 'inherit' shows the command's output (the suite); otherwise it is kept for the error message. */
  stdio?: StdioOptions;
  /** The account to run as (PostgreSQL's tools refuse root). */
  user?: Account;
}

export interface Account {
  uid: number;
  gid: number;
}

/** Runs a command to its end; resolves to its exit code and output. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<{ code: number; output: string }> {
  if (interrupted) return Promise.reject(new CommandError(`${command}: interrupted`));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
      ...options.user,
    });
    commands.add(child);
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-64 * 1024));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.on('error', (error) => {
      commands.delete(child);
      reject(new CommandError(`could not run ${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      commands.delete(child);
      clearTimeout(timer);
      resolve({ code: code ?? (signal === 'SIGINT' ? 130 : 143), output });
    });
  });
}

/** Like run, but a failure is an error named `what`, with the end of the command's output. */
export async function runChecked(what: string, command: string, args: string[], options: RunOptions = {}): Promise<string> {
  const { code, output } = await run(command, args, options);
  if (code !== 0) throw new CommandError(`${what} failed (exit code ${code})`, output);
  return output;
}

/** Starts a server in its own process group, output to `logFd`, so that it can outlive this process (--keep). */
export function startServer(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; logFd: number; user?: Account }): ChildProcess {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', options.logFd, options.logFd], ...options.user });
  child.unref();
  return child;
}

/** Sends `signal` and waits for the process to end; after 15 s it is killed. */
export async function stopServer(pid: number | undefined, signal: NodeJS.Signals): Promise<void> {
  if (!pid || !isAlive(pid)) return;
  process.kill(pid, signal);
  for (let waited = 0; isAlive(pid) && waited < 15_000; waited += 100) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

const isAlive = (pid: number) => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
