import type { Socket } from 'node:net';
import zlib from 'node:zlib';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { bodyBytes, faithfulAnswer, serveHttp, serveRaw, type LoopbackServer } from './hostile-servers.ts';

// Targets that misbehave below HTTP's surface: interim answers, content codings, bytes that trickle.
// They write the wire format by hand, so that nothing on their side corrects what they send.

/** A request as read off the wire: its method, path and query, and the headers the reference reads. */
export interface RawRequest {
  method: string;
  url: string;
  headers: { authorization?: string; host?: string };
}

export function parseHead(head: string): RawRequest {
  const [method = '', url = ''] = head.split(' ');
  const header = (name: string) => new RegExp(`^${name}: *(.*?)\\r?$`, 'im').exec(head)?.[1];
  return { method, url, headers: { authorization: header('authorization'), host: header('host') } };
}

/** An answer's head and body in wire format, exactly as given; `content-length` is added unless chunked or set. */
export function wire(status: number, headers: Record<string, string>, body: Buffer = Buffer.alloc(0)): Buffer {
  const all = 'transfer-encoding' in headers ? headers : { 'content-length': String(body.byteLength), ...headers };
  const head = `HTTP/1.1 ${status} X\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}connection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

/** Writes `bytes` a few at a time, `everyMs` apart, until they are all sent or the client goes away. */
export function trickle(socket: Socket, bytes: Buffer, everyMs: number, step = 1): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || sent >= bytes.byteLength) return void clearInterval(timer);
    socket.write(bytes.subarray(sent, (sent += step)));
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

/** What the reference would answer, in wire format, with its body changed by `encode` and headers added. */
function faithfulWire(request: RawRequest, extraHeaders: Record<string, string> = {}, encode = (b: Buffer) => b): Buffer {
  const answer = faithfulAnswer(request);
  return wire(answer.status, { ...answer.headers, ...extraHeaders }, encode(bodyBytes(answer)));
}

/** Sends an answer's head at once, then its body a byte every 100 ms. */
function trickleBody(socket: Socket, answer: Buffer): void {
  const bodyStart = answer.indexOf('\r\n\r\n') + 4;
  socket.write(answer.subarray(0, bodyStart));
  trickle(socket, answer.subarray(bodyStart), 100);
}

/** Sends 100 Continue (split across writes), 102 Processing and 103 Early Hints before every faithful answer. */
export function interimAnswersFirst(): Promise<LoopbackServer> {
  return serveRaw((socket, head) => {
    socket.write('HTTP/1.1 10');
    setTimeout(() => socket.write('0 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n'), 20);
    setTimeout(() => socket.write('HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n'), 40);
    setTimeout(() => socket.end(faithfulWire(parseHead(head))), 60);
  });
}

/** Chunked, as HTTP/1.1 frames a body: one chunk, then the last. */
const chunked = (bytes: Buffer) => Buffer.concat([Buffer.from(`${bytes.byteLength.toString(16)}\r\n`), bytes, Buffer.from('\r\n0\r\n\r\n')]);

/** Answers every request with its faithful answer gzipped as a transfer coding (Transfer-Encoding: gzip, chunked), which no TE asked for. */
export function unaskedTransferCoding(): Promise<LoopbackServer> {
  return serveRaw((socket, head) => void socket.end(faithfulWire(parseHead(head), { 'transfer-encoding': 'gzip, chunked' }, (b) => chunked(zlib.gzipSync(b)))));
}

const isAdmin = (request: RawRequest) => request.headers.authorization === REFERENCE_FIXTURES.adminToken;

/**
 * Answers the admin token's requests with broken content codings: the projects list labelled gzip but
 * plain, the archived list a truncated gzip, the unarchived one in a coding nobody knows, the first signup
 * token brotli garbage, the second a body that trickles for ever; other admin answers correctly gzipped.
 * Requests without the admin token are answered faithfully and plainly.
 */
export function brokenContentCodings(): Promise<LoopbackServer> {
  const [first, second] = REFERENCE_FIXTURES.signupTokens;
  return serveRaw((socket, head) => {
    const request = parseHead(head);
    if (!isAdmin(request)) return void socket.end(faithfulWire(request));
    if (request.url === '/api/admin/projects') return void socket.end(faithfulWire(request, { 'content-encoding': 'gzip' }));
    if (request.url.endsWith('?archived=true'))
      return void socket.end(faithfulWire(request, { 'content-encoding': 'gzip' }, (b) => zlib.gzipSync(b).subarray(0, 40)));
    if (request.url.endsWith('?archived=false')) return void socket.end(faithfulWire(request, { 'content-encoding': 'x-zebra' }));
    if (request.url.endsWith(first))
      return void socket.end(wire(200, { 'content-type': 'application/json', 'content-encoding': 'br' }, Buffer.alloc(64, 0xff)));
    if (request.url.endsWith(second)) return void trickleBody(socket, faithfulWire(request));
    socket.end(faithfulWire(request, { 'content-encoding': 'gzip' }, (b) => zlib.gzipSync(b)));
  });
}

/**
 * Rate-limits as a gateway does: the first try of every request is answered 429 with Retry-After: 0, the
 * retry faithfully; except the projects request without an authorization header, answered 429 for ever.
 */
export function rateLimiting(): Promise<LoopbackServer> {
  const tried = new Set<string>();
  return serveHttp((req, res) => {
    const key = `${req.headers.authorization ?? ''} ${req.url}`;
    const always = req.url === '/api/admin/projects' && req.headers.authorization === undefined;
    if (always || !tried.has(key)) {
      tried.add(key);
      return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"name":"TooManyRequests","message":"slow down"}');
    }
    const answer = faithfulAnswer(req);
    const body = bodyBytes(answer);
    res.writeHead(answer.status, { ...answer.headers, 'content-length': body.byteLength }).end(body);
  });
}
