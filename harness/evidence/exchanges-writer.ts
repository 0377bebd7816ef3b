import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BundleRecording } from './bundle-recording.ts';
import { type ExchangesJob, exchangesBytes } from './exchanges-file.js';

// Putting a recording of large lists into bytes (turning each body into JSON and hashing it) takes as long as
// judging it, and needs nothing of the judge: it runs on a thread of its own while the runner judges. The
// thread's code (exchanges-file.js) is JavaScript with Node's own modules only, so that a thread loads it as it
// is, from a clone (where the suite is TypeScript) and from the installed package. A small recording is put
// together by the same code in this process: starting a thread costs more than the work.

/** Bodies of at most this many characters in all are put together in this process. */
const IN_PROCESS_CHARS = 1 << 20;

/** The thread's module, beside this one in a clone and in the build alike. */
const THREAD = path.join(__dirname, 'exchanges-thread.js');

/** A bundle's exchanges.json: its bytes and their SHA-256, as the manifest names them. */
export interface ExchangesFile {
  bytes: Buffer;
  digest: string;
}

/**
 * A bundle's recording as the bytes of exchanges.json, on a thread of its own when large: each distinct body is
 * written once, by the first exchange that has it; a later exchange with the same body names that one
 * (`bodySameAs`), as a target that ignores `archived` sends one list three times.
 */
export function exchangesFile(bundle: BundleRecording): Promise<ExchangesFile> {
  const { exchanges, ...rest } = bundle;
  const index = new Map<string, number>();
  const bodies: string[] = [];
  const bodyOf = exchanges.map(({ bodyText }) => {
    if (bodyText === undefined) return -1;
    if (!index.has(bodyText)) index.set(bodyText, bodies.push(bodyText) - 1);
    return index.get(bodyText)!;
  });
  const job: ExchangesJob = {
    head: `${JSON.stringify(rest).slice(0, -1)},"exchanges":[\n`,
    exchanges: exchanges.map(({ bodyText: _, ...exchange }) => JSON.stringify(exchange)),
    bodyOf,
    bodies,
  };
  if (bodies.reduce((sum, body) => sum + body.length, 0) <= IN_PROCESS_CHARS) {
    return new Promise<ExchangesFile>((resolve) => resolve(exchangesBytes(job)));
  }
  return new Promise<ExchangesFile>((resolve, reject) => {
    const thread = new Worker(THREAD, { workerData: job });
    thread.once('message', ({ bytes, digest }: { bytes: Uint8Array; digest: string }) =>
      resolve({ bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), digest }),
    );
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the thread putting the exchanges of a bundle together stopped (exit code ${code}) before it was done`)));
  });
}
