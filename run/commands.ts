import { processIO, type CommandIO } from '../commands/command-io.ts';
import { diffCommand } from '../commands/diff-command.ts';
import { documentCommand } from '../commands/document-command.ts';
import { historyCommand } from '../commands/history-command.ts';
import { mergeCommand } from '../commands/merge-command.ts';
import { trendCommand } from '../commands/trend-command.ts';
import { verifyCommand } from '../commands/verify-command.ts';
import { forTheLog } from '../harness/files/visible.ts';
import { SILENT } from './output.ts';
import { referenceCommand, type ReferenceIO } from './reference.ts';
import { serveCommand, type ServeIO } from './serve.ts';

// The commands that read runs, as functions: each takes the command line's words after its name and gives the
// exit code the command exits with; its lines go to `io.output` (silent unless given).

/** The io of a call: the caller's, each part defaulting to silence, no variables and the process's folder. */
const ioOf = (io: Partial<CommandIO> = {}): CommandIO => {
  const to = io.output ?? SILENT;
  // Each line fit for a CI log, as a run's are.
  const output = { out: (text: string) => to.out(forTheLog(text)), err: (text: string) => to.err(forTheLog(text)) };
  return { output, env: io.env ?? {}, cwd: io.cwd ?? processIO().cwd };
};

/** `verify <bundle> [--anyway] [--key FILE]`: 0 verified, 1 a difference, 2 not verifiable here. */
export const verify = (args: string[], io?: Partial<CommandIO>): Promise<number> => verifyCommand(args, ioOf(io));

/** `merge <shard folder>…` into `CONFORMANCE_REPORT_DIR` of `io.env`: the merged run's exit code. */
export const merge = async (args: string[], io?: Partial<CommandIO>): Promise<number> => mergeCommand(args, ioOf(io));

/** `diff <old run> <new run>`: 1 when anything regressed, 0 otherwise, 2 a run unreadable, 3 nothing to compare. */
export const diff = async (args: string[], io?: Partial<CommandIO>): Promise<number> => diffCommand(args, ioOf(io));

/** `document [FILE]`: 0 the document's tables agree with the contracts, 1 rows differ, 2 not the document. */
export const document = async (args: string[], io?: Partial<CommandIO>): Promise<number> => documentCommand(args, ioOf(io));

/** `history FILE [--target NAME] [--clause ID] [--profile NAME]`: 1 when a clause regressed in a target's last run, 0 otherwise, 2 the file unreadable. */
export const history = async (args: string[], io?: Partial<CommandIO>): Promise<number> => historyCommand(args, ioOf(io));

/** `trend <run>… [--format markdown|json] [--title T] [--notes FILE] [--out FILE]`: a product's conformance over its versions; 0 drawn, 2 a run unreadable or naming no version. */
export const trend = async (args: string[], io?: Partial<CommandIO>): Promise<number> => trendCommand(args, ioOf(io));

/**
 * `reference [--port N] [<fault or valid variant>] [--list]`: the reference implementation served on loopback until
 * `io.signal` aborts; 0 once stopped, 2 for a mistake (an unknown name, a port it cannot listen on).
 */
export const reference = (args: string[], io?: Partial<ReferenceIO>): Promise<number> => referenceCommand(args, { ...ioOf(io), signal: io?.signal });

/**
 * `serve [--listen HOST:PORT] [--min-interval 5m] [--max-in-flight N] [--keep N]`: the exporter Prometheus scrapes,
 * `GET /probe?target=<name>` of a target of `io.env`'s settings, until `io.signal` aborts; 0 once stopped (the runs
 * under way ended), 2 for a mistake (an option, the settings, an address it cannot listen on).
 */
export const serve = (args: string[], io?: Partial<ServeIO>): Promise<number> =>
  serveCommand(args, { ...ioOf(io), signal: io?.signal, listening: io?.listening });

/** The commands by name, as the command line runs them. */
export const COMMANDS = { verify, merge, diff, document, history, trend, reference, serve } as const;

export { refuseCommandLine } from './engine.ts';
