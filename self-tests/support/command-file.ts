import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// The command's file (bin/admin-api-conformance.js, of a clone or an installed package) run in this process, for
// what it does before it starts anything: its help, its version, a word that is no command, a refusal. It is
// plain JavaScript that reads its arguments, its own folder and the suite's files beside it, and ends by
// process.exit; here its `process` is an object that gives it the arguments and catches what it writes and the
// exit, and its `require` resolves from where the file lies, as Node's would. A path that starts Playwright or a
// command's function is no business of this: the command is then a process (support/run-suite.ts).

/** What the command printed and its exit code. */
export interface CommandFileRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Thrown by the stand-in process.exit, to end the command's file where a process would end. */
class Exit {
  constructor(readonly code: number) {}
}

/** Runs the command's file with these arguments; it must end by returning or exiting, never leave work pending. */
export function runCommandFile(file: string, args: string[], env: Record<string, string | undefined> = {}): CommandFileRun {
  let [stdout, stderr] = ['', ''];
  const stand = {
    argv: [process.execPath, file, ...args],
    env: { ...env },
    execPath: process.execPath,
    platform: process.platform,
    cwd: () => path.dirname(file),
    stdout: { write: (text: string) => void (stdout += text) },
    stderr: { write: (text: string) => void (stderr += text) },
    exit: (code = 0) => {
      throw new Exit(code);
    },
  };
  const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  const module = { exports: {} };
  const body = new Function('require', 'module', 'exports', '__filename', '__dirname', 'process', source);
  try {
    body(createRequire(file), module, module.exports, file, path.dirname(file), stand);
  } catch (error) {
    if (error instanceof Exit) return { exitCode: error.code, stdout, stderr };
    throw error;
  }
  return { exitCode: 0, stdout, stderr };
}
