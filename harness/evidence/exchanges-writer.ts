import { Worker } from 'node:worker_threads';
import type { BundleRecording } from './bundle-recording.ts';

// Writing a recording of large lists (turning each body into JSON, hashing and writing it) takes as long as
// judging it, and needs nothing of the judge: it runs on a thread of its own while the runner judges. The
// thread's code is plain JavaScript with Node's own modules only, so that it runs the same from a clone
// (where the suite is TypeScript) and from the installed package. A small recording is written by the same
// code in this process: starting a thread costs more than writing it.

/** Bodies of at most this many characters in all are written in this process. */
const IN_PROCESS_CHARS = 1 << 20;

/** What the thread is given: the recording without its bodies, and each distinct body once. */
interface Job {
  file: string;
  head: string;
  exchanges: string[];
  /** For each exchange, the index of its body in `bodies`, or -1 when it has none. */
  bodyOf: number[];
  bodies: string[];
}

const WRITE = `
const { createHash } = require('node:crypto');
const { closeSync, openSync, renameSync, writeSync } = require('node:fs');
const { file, head, exchanges, bodyOf, bodies } = workerData;
const hash = createHash('sha256');
const partial = file + '.partial';
const fd = openSync(partial, 'w');
const write = (text) => { hash.update(text); writeSync(fd, text); };
const holder = new Map();
try {
  write(head);
  exchanges.forEach((exchange, i) => {
    const separator = i === 0 ? '' : ',\\n';
    if (bodyOf[i] === -1) return write(separator + exchange);
    if (holder.has(bodyOf[i])) return write(separator + exchange.slice(0, -1) + ',"bodySameAs":' + holder.get(bodyOf[i]) + '}');
    holder.set(bodyOf[i], i);
    write(separator + exchange.slice(0, -1) + ',"bodyText":');
    write(JSON.stringify(bodies[bodyOf[i]]));
    write('}');
  });
  write('\\n]}\\n');
} finally {
  closeSync(fd);
}
renameSync(partial, file);
return hash.digest('hex');
`;

const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.postMessage((() => {${WRITE}})());
`;

/** The thread's code, run in this process, with the `require` the thread would have. */
const writeHere = new Function('require', 'workerData', WRITE) as (require: NodeJS.Require, job: Job) => string;

/**
 * Writes a bundle's recording to `file` on a thread of its own, an exchange at a time (one JSON text of
 * every body at once would pass the longest string a JavaScript engine holds for a target with two large
 * lists). Each distinct body is written once, by the first exchange that has it; a later exchange with the
 * same body names that one (`bodySameAs`), as a target that ignores `archived` sends one list three times.
 * The file appears under its name only when whole.
 * Resolves to the SHA-256 of its bytes.
 */
export function writeExchanges(file: string, bundle: BundleRecording): Promise<string> {
  const { exchanges, ...rest } = bundle;
  const index = new Map<string, number>();
  const bodies: string[] = [];
  const bodyOf = exchanges.map(({ bodyText }) => {
    if (bodyText === undefined) return -1;
    if (!index.has(bodyText)) index.set(bodyText, bodies.push(bodyText) - 1);
    return index.get(bodyText)!;
  });
  const job: Job = {
    file,
    head: `${JSON.stringify(rest).slice(0, -1)},"exchanges":[\n`,
    exchanges: exchanges.map(({ bodyText: _, ...exchange }) => JSON.stringify(exchange)),
    bodyOf,
    bodies,
  };
  if (bodies.reduce((sum, body) => sum + body.length, 0) <= IN_PROCESS_CHARS) {
    return new Promise<string>((resolve) => resolve(writeHere(require, job)));
  }
  return new Promise<string>((resolve, reject) => {
    const thread = new Worker(THREAD, { eval: true, workerData: job });
    thread.once('message', (digest: string) => resolve(digest));
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the thread writing ${file} stopped (exit code ${code}) before it was done`)));
  });
}
