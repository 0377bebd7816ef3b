import type { Source } from '../harness/config/sources.ts';

// What a command is run with: its two output streams, the variables it reads, and the folder relative paths are
// taken from. The command line gives the process's own; a script or a self-test gives its own, in one process.

/** A command's two streams: its results, and its refusals and errors. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export interface CommandIO {
  output: Output;
  env: Source;
  cwd: string;
}

/** The process's own streams, as the command line prints. */
export const TERMINAL: Output = { out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };

/** The process's streams, environment and folder. */
export const processIO = (): CommandIO => ({ output: TERMINAL, env: process.env, cwd: process.cwd() });
