import { expect, test } from '@playwright/test';
import type { Socket } from 'node:net';
import zlib from 'node:zlib';
import { DEADLINE_SLACK_MS, serveRaw, withServer } from '../support/hostile-servers.ts';
import { sendOnce } from '../support/send.ts';
import { trickle, wire } from '../support/transport-servers.ts';

// Issue 12, transport: every request ends within CONFORMANCE_TIMEOUT_MS whatever the body, its coding or
// the interim answers before it, and a body that cannot be read says why. Each case is one target's
// answer on the wire and what the suite must make of it, checked in this process against a loopback server.

const TIMEOUT_MS = 1000;
const MAX_BODY_BYTES = 1024 * 1024;

const BODY = Buffer.from('{"version":1,"projects":[{"id":"default","name":"Default"}]}');
const JSON_TYPE = { 'content-type': 'application/json' };

interface Case {
  description: string;
  respond(socket: Socket): void;
  /** The body the suite must read, or the failure it must report. */
  result: { body: string } | { failure: RegExp };
}

const send = (bytes: Buffer) => (socket: Socket) => socket.end(bytes);
const coded = (coding: string, body: Buffer) => send(wire(200, { ...JSON_TYPE, 'content-encoding': coding }, body));
const read = { body: BODY.toString() };

/** Sends the head at once, then the body a byte every 50 ms. */
function trickleBody(headers: Record<string, string>, body: Buffer) {
  const length: Record<string, string> = 'transfer-encoding' in headers ? {} : { 'content-length': String(body.byteLength) };
  return (socket: Socket) => {
    socket.write(wire(200, { ...headers, ...length }));
    trickle(socket, body, 50);
  };
}

const CASES: Case[] = [
  { description: 'a gzip body is decoded', respond: coded('gzip', zlib.gzipSync(BODY)), result: read },
  { description: 'an x-gzip body is decoded', respond: coded('x-gzip', zlib.gzipSync(BODY)), result: read },
  { description: 'a deflate body is decoded', respond: coded('deflate', zlib.deflateSync(BODY)), result: read },
  { description: 'a br body is decoded', respond: coded('br', zlib.brotliCompressSync(BODY)), result: read },
  {
    description: 'a body coded gzip then br is decoded in the reverse order',
    respond: coded('gzip, br', zlib.brotliCompressSync(zlib.gzipSync(BODY))),
    result: read,
  },
  { description: 'an identity coding is no coding', respond: coded('identity', BODY), result: read },
  { description: 'an empty body labelled gzip is an empty body', respond: coded('gzip', Buffer.alloc(0)), result: { body: '' } },
  {
    description: 'plain text labelled gzip ends at once, naming the coding and the cause',
    respond: coded('gzip', BODY),
    result: { failure: /^the body is labelled Content-Encoding: gzip but cannot be decoded as gzip \(incorrect header check\)$/ },
  },
  {
    description: 'a truncated gzip body ends at once, naming the coding and the cause',
    respond: coded('gzip', zlib.gzipSync(BODY).subarray(0, 30)),
    result: { failure: /^the body is labelled Content-Encoding: gzip but cannot be decoded as gzip \(unexpected end of file\)$/ },
  },
  {
    description: 'brotli garbage ends at once, naming the coding',
    respond: coded('br', Buffer.alloc(64, 0xff)),
    result: { failure: /^the body is labelled Content-Encoding: br but cannot be decoded as br \(.+\)$/ },
  },
  {
    description: 'deflate garbage ends at once, naming the coding',
    respond: coded('deflate', BODY),
    result: { failure: /^the body is labelled Content-Encoding: deflate but cannot be decoded as deflate \(.+\)$/ },
  },
  {
    description: 'a coding nobody knows ends at once, naming it and the codings the suite asks for',
    respond: coded('x-zebra', BODY),
    result: { failure: /^the body is labelled Content-Encoding: "x-zebra", a coding the suite cannot decode \(it asks for gzip, deflate, br\)$/ },
  },
  {
    description: 'a gzip body that decodes to more than CONFORMANCE_MAX_BODY_BYTES is stopped',
    respond: coded('gzip', zlib.gzipSync(Buffer.alloc(8 * MAX_BODY_BYTES, 0x20))),
    result: { failure: /^the body, decoded from gzip, is larger than 1048576 bytes \(CONFORMANCE_MAX_BODY_BYTES\); decoding stopped$/ },
  },
  {
    description: 'a 100 Continue before the answer is skipped',
    respond: send(Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), wire(200, JSON_TYPE, BODY)])),
    result: read,
  },
  {
    description: '100, 102 and 103 interim answers before the answer are skipped',
    respond: send(
      Buffer.concat([
        Buffer.from(
          'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </a.css>\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n',
        ),
        wire(200, JSON_TYPE, BODY),
      ]),
    ),
    result: read,
  },
  {
    description: 'a 100 Continue arriving a byte at a time is skipped',
    respond: (socket) => trickle(socket, Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\nx-a: b\r\n\r\n'), wire(200, JSON_TYPE, BODY)]), 1, 3),
    result: read,
  },
  {
    description: 'a body that trickles ends at the deadline',
    respond: trickleBody({ ...JSON_TYPE }, Buffer.alloc(4096, 0x20)),
    result: { failure: /^the body was still arriving 1000 ms after the request \(CONFORMANCE_TIMEOUT_MS\); reading stopped$/ },
  },
  {
    description: 'a gzip body that trickles ends at the deadline',
    respond: trickleBody({ 'content-encoding': 'gzip' }, zlib.gzipSync(Buffer.alloc(4096, 0x20))),
    result: { failure: /^the body was still arriving 1000 ms/ },
  },
  {
    description: 'a chunked body that trickles ends at the deadline',
    respond: trickleBody({ 'transfer-encoding': 'chunked' }, Buffer.from('1\r\n \r\n'.repeat(500))),
    result: { failure: /^the body was still arriving 1000 ms/ },
  },
  {
    description: 'headers that trickle end at the deadline',
    respond: (socket) => trickle(socket, Buffer.from(`HTTP/1.1 200 OK\r\n${'x-slow: yes\r\n'.repeat(1000)}`), 20, 13),
    result: { failure: /^no answer within 1000 ms \(CONFORMANCE_TIMEOUT_MS\)$/ },
  },
  {
    description: 'interim answers without end end at the deadline',
    respond: (socket) => trickle(socket, Buffer.from('HTTP/1.1 103 Early Hints\r\n\r\n'.repeat(1000)), 10, 28),
    result: { failure: /^no answer within 1000 ms \(CONFORMANCE_TIMEOUT_MS\)$/ },
  },
  { description: 'silence ends at the deadline', respond: () => undefined, result: { failure: /^no answer within 1000 ms \(CONFORMANCE_TIMEOUT_MS\)$/ } },
];

for (const c of CASES) {
  test(`${c.description}, within CONFORMANCE_TIMEOUT_MS`, async () => {
    await withServer(serveRaw(c.respond), async (server) => {
      const exchange = await sendOnce(server.url, { timeoutMs: TIMEOUT_MS, maxBodyBytes: MAX_BODY_BYTES });
      expect(exchange.durationMs).toBeLessThan(TIMEOUT_MS + DEADLINE_SLACK_MS);
      if ('body' in c.result) {
        expect(exchange.failure).toBeUndefined();
        expect(exchange.status).toBe(200);
        expect(exchange.bodyText).toBe(c.result.body);
      } else {
        expect(exchange.failure).toMatch(c.result.failure);
      }
    });
  });
}
