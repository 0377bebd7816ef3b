import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readArguments } from '../commands/arguments.ts';
import type { CommandIO } from '../commands/command-io.ts';
import { ConfigError } from '../harness/files/config-error.ts';
import { visible } from '../harness/files/visible.ts';
import { createExporter } from './exporter.ts';
import { loadRun, type Run } from './prepare.ts';

// `admin-api-conformance serve [--listen HOST:PORT] [--min-interval 5m] [--max-in-flight 4] [--keep 3]`: the
// exporter. It reads its targets as a run does (CONFORMANCE_TARGETS, a fleet file, or one target), once, and
// serves Prometheus `GET /probe?target=<name>` (that target judged now, or its result younger than --min-interval)
// and `GET /metrics` (its own), on loopback unless told otherwise, until its signal (SIGINT or SIGTERM, as the
// command passes them on): then it takes no new run, lets those under way end, and ends with 0.

const USAGE = 'usage: admin-api-conformance serve [--listen HOST:PORT] [--min-interval 5m] [--max-in-flight N] [--keep N]';

/** Where the exporter listens unless told otherwise: loopback. */
export const DEFAULT_LISTEN = '127.0.0.1:9726';

export interface ServeIO extends CommandIO {
  signal?: AbortSignal;
  /** Told where the exporter listens, once it does (a self-test's port 0). */
  listening?: (url: string) => void;
}

const MISTAKE = 2;

/** How long the answers of the last runs have to reach their scrapers once the exporter stops. */
const CLOSE_GRACE_MS = 2_000;

/** HOST:PORT, an IPv6 host in brackets; the host is required, so that every interface is asked for by name (0.0.0.0). */
function listenOf(given: string): { host: string; port: number } | { mistake: string } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(given);
  const port = Number(match?.[3]);
  if (!match || port > 65535)
    return {
      mistake: `--listen takes HOST:PORT, such as 127.0.0.1:9726, 0.0.0.0:9726 for every interface or [::1]:9726, not "${visible(given.slice(0, 80))}"`,
    };
  return { host: match[1] ?? match[2], port };
}

/** A duration as 90s, 5m, 1h or 0, in milliseconds. */
function durationOf(given: string): number | undefined {
  const match = /^(\d{1,7})(ms|s|m|h)?$/.exec(given);
  if (!match || (match[2] === undefined && match[1] !== '0')) return undefined;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return Number(match[1]) * unit[match[2] ?? 'ms'];
}

/** A whole number from 1 to `most`. */
const countOf = (given: string, most: number) => (/^\d{1,6}$/.test(given) && Number(given) >= 1 && Number(given) <= most ? Number(given) : undefined);

interface Options {
  listen: { host: string; port: number };
  minIntervalMs: number;
  maxInFlight: number;
  keep: number;
}

function optionsOf(args: string[]): Options | { mistake: string } {
  const read = readArguments(args, { listen: 'value', 'min-interval': 'value', 'max-in-flight': 'value', keep: 'value' }, USAGE);
  if ('mistake' in read) return read;
  if (read.positionals.length > 0)
    return { mistake: `serve takes no target on its command line: its targets are those of its settings (CONFORMANCE_TARGETS); ${USAGE}` };
  const listen = listenOf(read.value('listen') ?? DEFAULT_LISTEN);
  if ('mistake' in listen) return listen;
  const minIntervalMs = durationOf(read.value('min-interval') ?? '5m');
  if (minIntervalMs === undefined) return { mistake: '--min-interval takes a duration: 90s, 5m, 1h, or 0 to judge at every probe' };
  const maxInFlight = countOf(read.value('max-in-flight') ?? '4', 1000);
  if (maxInFlight === undefined) return { mistake: '--max-in-flight takes a whole number from 1 to 1000' };
  const keep = countOf(read.value('keep') ?? '3', 1000);
  if (keep === undefined) return { mistake: '--keep takes a whole number from 1 to 1000: the probes kept per target' };
  return { listen, minIntervalMs, maxInFlight, keep };
}

/** Why the exporter could not listen, in words. */
function listenProblem(error: NodeJS.ErrnoException, listen: Options['listen']): string {
  const where = `${listen.host}:${listen.port}`;
  if (error.code === 'EADDRINUSE') return `${where} is taken (EADDRINUSE): give another --listen`;
  if (error.code === 'EACCES') return `${where} may not be opened by this user (EACCES): give a port above 1023`;
  return `the exporter could not listen on ${where} (${visible(error.code ?? error.message)})`;
}

async function listen(server: Server, at: Options['listen']): Promise<string> {
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(at.port, at.host, resolve));
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/** Serves until `signal` aborts: 0 once stopped, 2 for a mistake in the arguments or the settings, or an address it cannot listen on. */
export async function serveCommand(args: string[], io: ServeIO): Promise<number> {
  const refuse = (line: string) => {
    io.output.err(`admin-api-conformance serve: ${line}\n`);
    return MISTAKE;
  };
  const options = optionsOf(args);
  if ('mistake' in options) return refuse(options.mistake);
  let run: Run;
  try {
    run = loadRun(io.env, io.cwd);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return refuse(`configuration error: ${error.message}`);
  }
  if (run.targets.some((t) => t.replay)) return refuse('a replay (CONFORMANCE_REPLAY) judges a bundle once; the exporter probes live targets');
  if (io.signal?.aborted) return 0;
  const exporter = createExporter(run, { ...options, err: io.output.err });
  const server = createServer((req, res) => {
    exporter.handle(req, res).catch((error) => {
      io.output.err(`conformance serve: an answer failed (${visible(String((error as Error)?.message ?? error))})\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('the exporter failed to answer; its log says why\n');
    });
  });
  let url: string;
  try {
    url = await listen(server, options.listen);
  } catch (error) {
    return refuse(listenProblem(error as NodeJS.ErrnoException, options.listen));
  }
  io.output.out(
    `The exporter listens on ${url}: GET /probe?target=<name> for one of its ${run.targets.length} targets, GET /metrics for its own. Ctrl+C stops it.\n`,
  );
  io.listening?.(url);
  await new Promise<void>((resolve) => io.signal?.addEventListener('abort', () => resolve(), { once: true }));
  io.output.out(`The exporter stops: ${exporter.counts.inFlight} runs under way end first.\n`);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await exporter.drain();
  // The answers of the runs that ended are on their way: their connections close once sent, the others now.
  await new Promise<void>((resolve) => setImmediate(resolve));
  server.closeIdleConnections();
  await Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
  server.closeAllConnections();
  await closed;
  io.output.out('The exporter stopped.\n');
  return 0;
}
