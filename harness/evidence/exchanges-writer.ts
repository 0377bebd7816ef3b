import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BundleRecording } from './bundle-recording.ts';
import { type ExchangesJob, writeExchangesJob } from './exchanges-file.js';

// Writing a recording of large lists (turning each body into JSON, hashing and writing it) takes as long as
// judging it, and needs nothing of the judge: it runs on a thread of its own while the runner judges. The
// thread's code (exchanges-file.js) is JavaScript with Node's own modules only, so that a thread loads it as it
// is, from a clone (where the suite is TypeScript) and from the installed package. A small recording is written
// by the same code in this process: starting a thread costs more than writing it.

/** Bodies of at most this many characters in all are written in this process. */
const IN_PROCESS_CHARS = 1 << 20;

/** The thread's module, beside this one in a clone and in the build alike. */
const THREAD = path.join(__dirname, 'exchanges-thread.js');

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
  const job: ExchangesJob = {
    file,
    head: `${JSON.stringify(rest).slice(0, -1)},"exchanges":[\n`,
    exchanges: exchanges.map(({ bodyText: _, ...exchange }) => JSON.stringify(exchange)),
    bodyOf,
    bodies,
  };
  if (bodies.reduce((sum, body) => sum + body.length, 0) <= IN_PROCESS_CHARS) {
    return new Promise<string>((resolve) => resolve(writeExchangesJob(job)));
  }
  return new Promise<string>((resolve, reject) => {
    const thread = new Worker(THREAD, { workerData: job });
    thread.once('message', (digest: string) => resolve(digest));
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the thread writing ${file} stopped (exit code ${code}) before it was done`)));
  });
}
