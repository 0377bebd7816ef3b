import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { bodyOverCap, decodedOverCap, undecodableBody, unknownCoding } from './transport-failures.ts';

/** The bytes of a body, decoded from its content codings, or why there are none. */
export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; failure: string };

type Decoder = (bytes: Buffer, maxOutputLength: number, done: (error: Error | null, result: Buffer) => void) => void;

// RFC 9110, 8.4.1: the codings the suite asks for (Accept-Encoding); "x-gzip" is gzip's old name.
const DECODERS: Record<string, Decoder> = {
  gzip: (bytes, maxOutputLength, done) => zlib.gunzip(bytes, { maxOutputLength }, done),
  'x-gzip': (bytes, maxOutputLength, done) => zlib.gunzip(bytes, { maxOutputLength }, done),
  deflate: (bytes, maxOutputLength, done) => zlib.inflate(bytes, { maxOutputLength }, done),
  br: (bytes, maxOutputLength, done) => zlib.brotliDecompress(bytes, { maxOutputLength }, done),
};

export const ACCEPTED_CODINGS = 'gzip, deflate, br';

/** The codings of a Content-Encoding header in the order they were applied; identity is no coding. */
function codingsOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/** The bytes as sent, at most `maxBytes` of them: a larger body is not read on. */
async function readRaw(body: Readable, declaredLength: string | undefined, maxBytes: number): Promise<{ bytes: Buffer } | { overCap: true }> {
  if (Number(declaredLength ?? NaN) > maxBytes) {
    body.destroy();
    return { overCap: true };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    // Leaving the loop destroys the stream, which tells the target to stop sending.
    if (total > maxBytes) return { overCap: true };
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks) };
}

function decode(coding: string, bytes: Buffer, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    DECODERS[coding](bytes, maxBytes, (error, result) => {
      if (error === null) return resolve({ ok: true, bytes: result });
      const code = (error as NodeJS.ErrnoException).code;
      resolve({ ok: false, failure: code === 'ERR_BUFFER_TOO_LARGE' ? decodedOverCap(coding, maxBytes) : undecodableBody(coding, error.message) });
    });
  });
}

/**
 * Reads a whole body and undoes its content codings, the last applied first; neither the bytes read nor
 * any decoded stage may pass `maxBytes`. An empty body needs no decoding, whatever its header says.
 */
export async function readBody(body: Readable, headers: { contentLength?: string; contentEncoding?: string }, maxBytes: number): Promise<BodyRead> {
  const codings = codingsOf(headers.contentEncoding);
  const unknown = codings.find((c) => !(c in DECODERS));
  if (unknown !== undefined) {
    body.destroy();
    return { ok: false, failure: unknownCoding(unknown, ACCEPTED_CODINGS) };
  }
  const raw = await readRaw(body, headers.contentLength, maxBytes);
  if ('overCap' in raw) return { ok: false, failure: bodyOverCap(maxBytes) };
  let read: BodyRead = { ok: true, bytes: raw.bytes };
  for (const coding of codings.reverse()) {
    if (!read.ok || read.bytes.byteLength === 0) break;
    read = await decode(coding, read.bytes, maxBytes);
  }
  return read;
}
