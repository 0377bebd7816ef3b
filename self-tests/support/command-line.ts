import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import vm from 'node:vm';
import * as closest from '../../harness/files/closest.ts';
import * as commands from '../../run/commands.ts';
import { COMMAND, commandEnv, noteRun, PROJECT_ROOT } from './run-suite.ts';

// The command's own reading of its command line, in this process, as click's CliRunner runs a command: the
// script itself (bin/admin-api-conformance.js, plain JavaScript that runs as it loads), given a process of the
// test's making. Its arguments, environment and folder are the test's; what it prints is caught; an exit ends the
// call; Playwright is not started but noted, with the arguments and environment the command would give it, or
// played by an answer the test gives. A handful of runs of the command in a child process prove that a real
// process behaves alike (self-tests/suite/command-line.test.ts).

/** How Playwright's runner answers, when a test plays it: what it writes to its error output, and its exit code. */
export interface PlaywrightAnswer {
  stderr: string;
  code: number;
}

export interface CommandLineRun {
  /** The code the command exited with; undefined when it started Playwright and went on waiting for it. */
  exitCode?: number;
  stdout: string;
  stderr: string;
  /** Each start of Playwright's command line: its arguments (after Playwright's own script), environment and output. */
  playwright: { args: string[]; env: Record<string, string | undefined>; stdio?: unknown }[];
}

/** The command's script, read once; a function of the names a CommonJS module sees, and of its process. */
let script: ((...given: unknown[]) => void) | undefined;
function commandScript(): (...given: unknown[]) => void {
  if (script !== undefined) return script;
  // The first line (#!) is no JavaScript; a comment in its place keeps the line numbers.
  const source = readFileSync(COMMAND, 'utf8').replace(/^#!.*/, '//');
  const names = ['require', 'module', 'exports', '__filename', '__dirname', 'process'];
  script = vm.compileFunction(source, names, { filename: COMMAND }) as (...given: unknown[]) => void;
  return script;
}

/** The suite's modules the command loads through tsx, by their files. */
const SUITE_MODULES: Record<string, unknown> = {
  [path.join(PROJECT_ROOT, 'harness/files/closest.ts')]: closest,
  [path.join(PROJECT_ROOT, 'run/commands.ts')]: commands,
};

/** A folder of its own for a call, so that no `.env` of the developer's is read and a report folder lands in it. */
const scratch = () => mkdtempSync(path.join(os.tmpdir(), 'conformance-command-line-'));

/** How the command's process ends a call: exit, which ends the script where it stands. */
class Exit {
  constructor(readonly code: number) {}
}

/**
 * Runs the command with these arguments (as after `admin-api-conformance`), the environment given (the user's,
 * cleared of what a test did not give, as runSuite has it) and the folder given. With `answer`, Playwright's runner
 * answers as given once started; without it, the call ends when Playwright would start.
 */
export async function commandLine(args: string[], env: Record<string, string> = {}, cwd = scratch(), answer?: PlaywrightAnswer): Promise<CommandLineRun> {
  const run: CommandLineRun = { stdout: '', stderr: '', playwright: [] };
  // Not started by npm: the command would otherwise watch for npm's end for as long as this process lives.
  const variables = commandEnv(env);
  for (const npm of ['npm_lifecycle_event', 'npm_command']) if (!(npm in env)) delete variables[npm];
  const real = createRequire(COMMAND);
  const tsx = real.resolve('tsx/cjs/api');
  let started: EventEmitter | undefined;
  const fakeProcess = {
    argv: [process.execPath, COMMAND, ...args],
    env: variables,
    execPath: process.execPath,
    ppid: process.ppid,
    pid: process.pid,
    exitCode: undefined as number | undefined,
    stdout: { write: (text: string | Buffer) => void (run.stdout += text) },
    stderr: { write: (text: string | Buffer) => void (run.stderr += text) },
    cwd: () => cwd,
    on: () => fakeProcess,
    exit: (code: number) => {
      throw new Exit(code);
    },
  };
  const childProcess = {
    spawn: (_node: string, [, ...rest]: string[], options: { env: Record<string, string | undefined>; stdio?: unknown }) => {
      run.playwright.push({ args: rest, env: options.env, stdio: options.stdio });
      started = playedRunner();
      if (answer === undefined) throw new Exit(Number.NaN);
      return started;
    },
    spawnSync: (_node: string, [, ...rest]: string[], options?: { env?: Record<string, string | undefined>; stdio?: unknown }) => {
      run.playwright.push({ args: rest, env: options?.env ?? fakeProcess.env, stdio: options?.stdio });
      return { status: 0 };
    },
  };
  // The temporary folder is the one the given environment names, as Node's own os.tmpdir() reads TMPDIR.
  const fakeOs = { ...os, tmpdir: () => variables.TMPDIR || os.tmpdir() };
  const fakeRequire = Object.assign(
    (id: string) => {
      if (id === 'node:child_process') return childProcess;
      if (id === 'node:os') return fakeOs;
      if (id === tsx) return { require: (file: string) => SUITE_MODULES[file] ?? real(file) };
      return real(id);
    },
    { resolve: real.resolve },
  );
  const ended = (error: unknown) => {
    if (!(error instanceof Exit)) throw error;
    if (!Number.isNaN(error.code)) run.exitCode = error.code;
  };
  try {
    commandScript()(fakeRequire, { exports: {} }, {}, COMMAND, path.dirname(COMMAND), fakeProcess);
  } catch (error) {
    ended(error);
  }
  if (started !== undefined && answer !== undefined) {
    try {
      (started as EventEmitter & { stderr: PassThrough }).stderr.emit('data', Buffer.from(answer.stderr));
      started.emit('close', answer.code, null);
    } catch (error) {
      ended(error);
    }
  }
  // A command of the suite's (verify, merge, ...) sets its exit code once it has run.
  await new Promise((resolve) => setImmediate(resolve));
  run.exitCode ??= fakeProcess.exitCode;
  return run;
}

/** Playwright's runner as the command sees it: a child with an error output, a channel and an end. */
function playedRunner(): EventEmitter & { stderr: PassThrough; kill: () => void } {
  return Object.assign(new EventEmitter(), { stderr: new PassThrough(), kill: () => undefined });
}

/**
 * Runs the command in a child process with these arguments as given, from a folder of its own, its output read
 * through pipes: for what only a process shows of a command the suite runs in process too (verify, merge, diff,
 * document), that the command loads it, gives its exit code, and writes its output whole.
 */
export async function commandProcess(args: string[], env: Record<string, string> = {}): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const started = Date.now();
  const child = spawn(process.execPath, [COMMAND, ...args], { cwd: scratch(), env: commandEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  noteRun(started, exitCode, stdout);
  return { exitCode, stdout, stderr };
}
