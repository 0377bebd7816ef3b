import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { COMMANDS } from '../../run/commands.ts';
import { runConformance } from '../../run/engine.ts';
import { test } from '@playwright/test';
import { PROJECT_ROOT } from './run-suite.ts';

// The suite's command standing in, for the action's scripts and the CI recipes' shells run as CI runs them: each
// call of the command (`npx admin-api-conformance …`, or `node <the action>/bin/admin-api-conformance.js`) hands
// its arguments, environment and folder to this process, which runs what the command would run, runConformance or
// merge, here, and answers its output and exit code; the shell goes on with them. npm stands in too: it notes the
// install and installs nothing. What only the command's own process shows (Playwright, its reporter, the exit
// code it carries) is shown by the runs of ci.test.ts and installed.test.ts.

/** One call of a stand-in, as the shell made it, and what it answered. */
export interface Call {
  /** `npx` or `npm` from PATH, or `bin`: the action's command. */
  role: 'npx' | 'npm' | 'bin';
  args: string[];
  cwd: string;
  env: Record<string, string>;
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface StandIn {
  /** The variables a shell needs to find the stand-ins: npx and npm first on PATH. */
  env: Record<string, string>;
  /** A checkout of the action (GITHUB_ACTION_PATH) whose scripts are this repository's and whose command stands in. */
  actionPath: string;
  /** Every call so far, in order. */
  calls: Call[];
  close(): Promise<void>;
}

/** The stand-in program: posts its call to this process and ends as the answer says. */
const program = (url: string, role: Call['role']) => `// The suite's ${role} standing in (self-tests/support/stand-in.ts).
const http = require('node:http');
const call = JSON.stringify({ role: ${JSON.stringify(role)}, args: process.argv.slice(2), cwd: process.cwd(), env: process.env });
const request = http.request(${JSON.stringify(url)}, { method: 'POST' }, (response) => {
  let text = '';
  response.setEncoding('utf8');
  response.on('data', (chunk) => (text += chunk));
  response.on('end', () => {
    const answer = JSON.parse(text);
    process.stdout.write(answer.stdout);
    process.stderr.write(answer.stderr);
    process.exitCode = answer.exitCode;
  });
});
request.on('error', (error) => {
  process.stderr.write('stand-in: ' + error.message + '\\n');
  process.exitCode = 99;
});
request.end(call);
`;

/**
 * What the command makes of the arguments the recipes give it (bin/admin-api-conformance.js, `main`): `merge` and
 * its folders, or a run, `--shard=…` taken as CONFORMANCE_SHARD wherever it stands. Anything else is no argument a
 * recipe gives, and is refused rather than guessed at.
 */
function commandOf(args: string[]): { merge: string[] } | { shard?: string } | undefined {
  if (args[0] === 'merge') return { merge: args.slice(1) };
  const given = args.filter((a) => a !== '--');
  if (given.length === 0) return {};
  if (given.length === 1 && /^--shard=./.test(given[0])) return { shard: given[0].slice('--shard='.length) };
  return undefined;
}

async function answer(call: Omit<Call, 'exitCode' | 'stdout' | 'stderr'>): Promise<Pick<Call, 'exitCode' | 'stdout' | 'stderr'>> {
  if (call.role === 'npm') return { exitCode: 0, stdout: '', stderr: '' };
  if (call.role === 'npx' && call.args[0] !== 'admin-api-conformance')
    return { exitCode: 127, stdout: '', stderr: `stand-in: npx runs the suite's command here, not ${call.args[0]}\n` };
  const args = call.role === 'npx' ? call.args.slice(1) : call.args;
  const command = commandOf(args);
  if (command === undefined) return { exitCode: 99, stdout: '', stderr: `stand-in: the command is given ${JSON.stringify(args)}, which no recipe gives it\n` };
  let [stdout, stderr] = ['', ''];
  const output = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) };
  const exitCode =
    'merge' in command
      ? await COMMANDS.merge(command.merge, { output, env: call.env, cwd: call.cwd })
      : (await runConformance({ env: { ...call.env, ...(command.shard === undefined ? {} : { CONFORMANCE_SHARD: command.shard }) }, cwd: call.cwd, output }))
          .exitCode;
  return { exitCode, stdout, stderr };
}

function executable(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

/** Starts the stand-ins: a server in this process, and the programs that call it. */
export async function startStandIn(): Promise<StandIn> {
  const calls: Call[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (text += chunk));
    request.on('end', async () => {
      const call = JSON.parse(text) as Omit<Call, 'exitCode' | 'stdout' | 'stderr'>;
      const answered = await answer(call).catch((error: Error) => ({ exitCode: 99, stdout: '', stderr: `stand-in: ${error.stack}\n` }));
      calls.push({ ...call, ...answered });
      response.end(JSON.stringify(answered));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-stand-in-'));
  for (const role of ['npx', 'npm'] as const) {
    writeFileSync(path.join(dir, `${role}.js`), program(url, role));
    executable(path.join(dir, 'path', role), `#!/bin/sh\nexec '${process.execPath}' '${path.join(dir, `${role}.js`)}' "$@"\n`);
  }
  const actionPath = path.join(dir, 'action-checkout');
  mkdirSync(path.join(actionPath, 'bin'), { recursive: true });
  writeFileSync(path.join(actionPath, 'bin', 'admin-api-conformance.js'), program(url, 'bin'));
  for (const entry of ['action', 'node_modules']) symlinkSync(path.join(PROJECT_ROOT, entry), path.join(actionPath, entry));
  return {
    env: { PATH: `${path.join(dir, 'path')}:${process.env.PATH}` },
    actionPath,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The stand-ins of a test file: started before its tests, stopped after them. What it returns reads the stand-ins
 * started, so that a file declares it once, at its top.
 */
export function standInForTests(): Omit<StandIn, 'close'> {
  let started: StandIn | undefined;
  test.beforeAll(async () => {
    started = await startStandIn();
  });
  test.afterAll(async () => started?.close());
  const running = (): StandIn => {
    if (started === undefined) throw new Error('the stand-ins start before the tests of the file');
    return started;
  };
  return {
    get env() {
      return running().env;
    },
    get actionPath() {
      return running().actionPath;
    },
    get calls() {
      return running().calls;
    },
  };
}
