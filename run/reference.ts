import type { Server } from 'node:http';
import { readArguments } from '../commands/arguments.ts';
import type { CommandIO } from '../commands/command-io.ts';
import { closest } from '../harness/files/closest.ts';
import { visible } from '../harness/files/visible.ts';
import { referenceEnvironment } from '../reference-server/fixtures.ts';
import { startReferenceServer } from '../reference-server/server.ts';
import { FAULTS, VALID_VARIANTS } from '../reference-server/variants/index.ts';

// `admin-api-conformance reference [--port N] [<fault or valid variant>] [--list]`: the reference implementation of
// the document served on loopback, every named fault and valid variant under /variants/<name>, for trying the suite
// against a target whose flaw is known (docs/fault-matrix.md lists them). It prints where it listens and the
// settings that point the suite at it: the reference fixtures' own tokens, the demo's and no one's secret. It serves
// until its signal (Ctrl+C or SIGTERM, as the command passes them on) stops it, and then ends with 0.

const USAGE = 'usage: admin-api-conformance reference [--port N] [<fault or valid variant name>] [--list]';

/** What the command is run with, and what stops it. */
export interface ReferenceIO extends CommandIO {
  signal?: AbortSignal;
}

/** A mistake in what the command was given: one line, exit code 2. */
const MISTAKE = 2;

const VARIANTS = [...FAULTS, ...VALID_VARIANTS];
const NAMES = VARIANTS.map((v) => v.name);

/** The variant named, or the line that says none is, naming the nearest. */
function variantNamed(name: string): (typeof VARIANTS)[number] | { mistake: string } {
  const variant = VARIANTS.find((v) => v.name === name);
  if (variant) return variant;
  const shown = visible(name.slice(0, 80));
  const meant = closest(name, NAMES);
  const hint = meant === undefined ? '' : `; did you mean "${meant}"?`;
  return { mistake: `no fault or valid variant is named "${shown}"${hint} (admin-api-conformance reference --list names them all)` };
}

/** The port given: a whole number from 0 (any free port) to 65535. */
function portOf(given: string | undefined): number | { mistake: string } {
  if (given === undefined) return 0;
  if (!/^\d{1,5}$/.test(given) || Number(given) > 65535) return { mistake: `--port takes a port number from 0 (any free one) to 65535; ${USAGE}` };
  return Number(given);
}

/** Every fault with the clauses it breaks, then every valid variant: one line each. */
function listing(): string {
  const faults = FAULTS.map((f) => `  ${f.name}  ${f.description}; breaks ${f.breaks.join(', ')}`);
  const valid = VALID_VARIANTS.map((v) => `  ${v.name}  ${v.description}; conforms`);
  return `Faults (each breaks the clauses named):\n${faults.join('\n')}\nValid variants (each conforms, differently from the reference):\n${valid.join('\n')}\n`;
}

/** Where it listens and what it serves, and the settings that point the suite at it. */
function announcement(url: string, variant: (typeof VARIANTS)[number] | undefined): string {
  const base = variant ? `${url}/variants/${variant.name}` : url;
  const what = !variant
    ? 'the faithful reference implementation, which conforms'
    : 'breaks' in variant
      ? `the fault ${variant.name}: ${variant.description}; it breaks ${variant.breaks.join(', ')}`
      : `the valid variant ${variant.name}: ${variant.description}; it conforms`;
  const settings = Object.entries(referenceEnvironment(base)).map(([name, value]) => `  export ${name}=${value}`);
  return [
    `The reference implementation listens on ${url}, every fault and valid variant under /variants/<name>.`,
    `At ${base}: ${what}.`,
    "Point the suite at it from another terminal (these tokens are the reference server's own demo tokens, no one's secret):",
    ...settings,
    '  npx admin-api-conformance          # in a clone of the suite: npm run conformance',
    'Ctrl+C stops it.',
    '',
  ].join('\n');
}

/** Why the server could not listen, in words. */
function listenProblem(error: NodeJS.ErrnoException, port: number): string {
  if (error.code === 'EADDRINUSE') return `port ${port} is taken (EADDRINUSE): give another with --port, or --port 0 for any free one`;
  if (error.code === 'EACCES') return `port ${port} may not be opened by this user (EACCES): give one above 1023, or --port 0 for any free one`;
  return `the reference server could not listen on port ${port} (${visible(error.code ?? error.message)})`;
}

/** Serves until `signal` aborts: 0 once stopped, 2 for a mistake in the arguments or a port it cannot listen on. */
export async function referenceCommand(args: string[], io: ReferenceIO): Promise<number> {
  const refuse = (line: string) => {
    io.output.err(`admin-api-conformance reference: ${line}\n`);
    return MISTAKE;
  };
  const read = readArguments(args, { port: 'value', list: 'flag' }, USAGE);
  if ('mistake' in read) return refuse(read.mistake);
  if (read.flag('list')) {
    io.output.out(listing());
    return 0;
  }
  if (read.positionals.length > 1) return refuse(USAGE);
  const variant = read.positionals[0] === undefined ? undefined : variantNamed(read.positionals[0]);
  if (variant && 'mistake' in variant) return refuse(variant.mistake);
  const port = portOf(read.value('port'));
  if (typeof port !== 'number') return refuse(port.mistake);
  if (io.signal?.aborted) return 0;
  let served: { server: Server; url: string };
  try {
    served = await startReferenceServer(port, VARIANTS);
  } catch (error) {
    return refuse(listenProblem(error as NodeJS.ErrnoException, port));
  }
  io.output.out(announcement(served.url, variant));
  await new Promise<void>((resolve) => io.signal?.addEventListener('abort', () => resolve(), { once: true }));
  await new Promise<void>((resolve) => {
    served.server.closeAllConnections();
    served.server.close(() => resolve());
  });
  io.output.out('The reference server stopped.\n');
  return 0;
}
