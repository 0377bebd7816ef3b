import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';

/**
 * A failure with a one-line message; `detail` carries the tail of a log or of
 * a command's output, printed under the message by the command-line entry points.
 */
export class TargetError extends Error {
  readonly detail?: string;

  constructor(message: string, detail?: string) {
    super(message);
    this.name = 'TargetError';
    this.detail = detail?.trim() ? detail.trim() : undefined;
  }
}

export type Logger = (message: string) => void;

export const stderrLogger: Logger = (message) => {
  process.stderr.write(`[unleash-target] ${message}\n`);
};

export const silentLogger: Logger = () => {};

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** Asks the kernel for a currently unused loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new TargetError('could not determine a free loopback port'));
        return;
      }
      const { port } = address;
      server.close(() => resolve(port));
    });
  });
}

export function lastLines(text: string, count = 20): string {
  const lines = text.replace(/\s+$/, '').split('\n');
  return lines.slice(-count).join('\n');
}

/** Reads only the end of a file so that huge logs stay cheap to report. */
export function tailFile(path: string, count = 20): string {
  try {
    const fd = fs.openSync(path, 'r');
    try {
      const { size } = fs.fstatSync(fd);
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      return lastLines(buffer.toString('utf8'), count);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return `(no log at ${path})`;
  }
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Aborting kills the command's whole process group. */
  signal?: AbortSignal;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new TargetError('startup interrupted');
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved, for error reports. */
  output: string;
  stdout: string;
}

const OUTPUT_LIMIT = 256 * 1024;

const activeGroups = new Set<number>();
let exitHookInstalled = false;

/** Commands run in their own process group, so an abrupt exit of ours would orphan them (e.g. a long npm install). */
function trackGroup(pid: number): void {
  activeGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const group of activeGroups) killGroup(group, 'SIGKILL');
    });
  }
}

/**
 * Runs a command to completion, keeping the last part of its combined output.
 * The child gets its own process group so that a timeout also ends whatever it spawned.
 */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new TargetError('startup interrupted'));
      return;
    }
    let output = '';
    let stdout = '';
    let timedOut = false;
    let aborted = false;
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (child.pid) trackGroup(child.pid);
    const append = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      append(chunk);
      stdout += chunk.toString('utf8');
      if (stdout.length > OUTPUT_LIMIT) stdout = stdout.slice(-OUTPUT_LIMIT);
    });
    child.stderr?.on('data', append);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup(child.pid, 'SIGKILL');
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.pid) activeGroups.delete(child.pid);
      reject(new TargetError(`could not run ${command}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.pid) activeGroups.delete(child.pid);
      if (aborted) {
        reject(new TargetError('startup interrupted'));
        return;
      }
      if (timedOut) {
        reject(
          new TargetError(
            `${command} ${args.join(' ')} timed out after ${Math.round(options.timeoutMs / 1000)}s`,
            lastLines(output),
          ),
        );
        return;
      }
      resolve({ code, signal, output, stdout });
    });
  });
}

/** Like run(), but a non-zero exit becomes a TargetError labelled `what`; resolves to stdout. */
export async function runChecked(
  what: string,
  command: string,
  args: string[],
  options: RunOptions,
): Promise<string> {
  let result: RunResult;
  try {
    result = await run(command, args, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (error instanceof TargetError) throw new TargetError(`${what} failed: ${error.message}`, error.detail);
    throw error;
  }
  if (result.code !== 0) {
    const how = result.signal ? `signal ${result.signal}` : `exit code ${result.code}`;
    throw new TargetError(`${what} failed (${how})`, lastLines(result.output));
  }
  return result.stdout;
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Formats an error for a terminal: one line, then the indented detail if any. */
export function describeError(error: unknown): string {
  const line = `error: ${errorMessage(error).split('\n')[0]}`;
  if (error instanceof TargetError && error.detail) {
    const indented = error.detail
      .split('\n')
      .map((l) => `  | ${l}`)
      .join('\n');
    return `${line}\n${indented}`;
  }
  return line;
}
