import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { respond, type ReferenceResponse } from '../../reference-server/respond.ts';
import { expect } from '@playwright/test';
import { runClauses } from './run-clauses.ts';
import { referenceTargetEnv, statusesOf, type SuiteRun } from './run-suite.ts';

/** What a loopback server saw of one request. */
export interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  authorization?: string;
}

export interface LoopbackServer {
  url: string;
  /** Every request the server received, in arrival order. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const PROJECTS_PATH = '/api/admin/projects';

// Open sockets are destroyed on close: a server that never answers must not keep the test process alive.
export async function listen(server: Server, seen: SeenRequest[]): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close };
}

/** An HTTP server on a free loopback port that records every request and hands it to `handler`. */
export function serveHttp(handler: Handler): Promise<LoopbackServer> {
  const seen: SeenRequest[] = [];
  // Heads as large as the longest token the suite takes (64 KiB) in the Authorization header or the path, twice over.
  const server = createHttpServer({ maxHeaderSize: 256 * 1024 }, (req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    void Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  return listen(server, seen);
}

/** A TCP server that reads one request head per connection and then does whatever `onRequest` says. */
export function serveRaw(onRequest: (socket: Socket, head: string) => void): Promise<LoopbackServer> {
  const seen: SeenRequest[] = [];
  const server = createNetServer((socket) => {
    let head = '';
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const [method = '', path = ''] = head.split(' ');
      seen.push({ method, path, authorization: /^authorization: *(.*)$/im.exec(head)?.[1] });
      onRequest(socket, head);
    });
  });
  return listen(server, seen);
}

/** The reference implementation's answer to a request: what a faithful target would send. */
export function faithfulAnswer(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): ReferenceResponse {
  const url = new URL(req.url ?? '/', 'http://loopback.invalid');
  return respond({
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    authorization: req.headers.authorization,
    origin: `http://${req.headers.host ?? '127.0.0.1'}`,
    now: Date.now(),
  });
}

export function bodyBytes(answer: ReferenceResponse): Buffer {
  return Buffer.from(answer.raw ? String(answer.body) : JSON.stringify(answer.body));
}

export function writeAnswer(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void {
  res.writeHead(status, { ...headers, 'content-length': body.byteLength });
  res.end(body);
}

function writeFaithful(req: IncomingMessage, res: ServerResponse): void {
  const answer = faithfulAnswer(req);
  writeAnswer(res, answer.status, answer.headers, bodyBytes(answer));
}

/** A projects request (with or without archived) the reference would answer 200. */
function isAdminProjectsRequest(req: IncomingMessage): boolean {
  return new URL(req.url ?? '/', 'http://loopback.invalid').pathname === PROJECTS_PATH && req.headers.authorization === REFERENCE_FIXTURES.adminToken;
}

/** A loopback URL with nothing listening on it: the port was free a moment ago and is closed again. */
export async function refusingUrl(): Promise<string> {
  const probe = await listen(createNetServer(), []);
  await probe.close();
  return probe.url;
}

/** Faithful behaviour, and a log of every request's method, path and authorization header. */
export function recordingReference(): Promise<LoopbackServer> {
  return serveHttp(writeFaithful);
}

/**
 * Faithful behaviour, and Unleash's answer to `GET /api/admin/ui-config` with the admin token: its configuration,
 * `version` among it (`answer` gives another body, a status of its own, or nothing for 404).
 */
export function versionedReference(answer: { status?: number; body?: unknown } = {}): Promise<LoopbackServer> {
  return serveHttp((req, res) => {
    if (new URL(req.url ?? '/', 'http://loopback.invalid').pathname !== '/api/admin/ui-config') return writeFaithful(req, res);
    const admin = req.headers.authorization === REFERENCE_FIXTURES.adminToken;
    const body = answer.body ?? { version: '8.2.0', unleashUrl: 'http://127.0.0.1', authenticationType: 'open-source', flags: {} };
    writeAnswer(
      res,
      admin ? (answer.status ?? 200) : 401,
      { 'content-type': 'application/json' },
      Buffer.from(JSON.stringify(admin ? body : { message: 'no' })),
    );
  });
}

/** Sends a status line, headers and part of the body, then resets the connection. */
export function resetMidBody(): Promise<LoopbackServer> {
  return serveRaw((socket) => {
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4096\r\n\r\n{"version":1,"projects":[{"id":"def');
    setTimeout(() => socket.resetAndDestroy(), 20);
  });
}

/** Accepts every connection and reads the request, but never sends a byte back. */
export function neverAnswers(): Promise<LoopbackServer> {
  return serveRaw(() => undefined);
}

/** Answers every request 200 with an HTML login page, as a misrouted base URL does. */
export function htmlLoginPage(): Promise<LoopbackServer> {
  const page = Buffer.from(
    '<!doctype html><html><head><title>Sign in</title></head><body><form action="/login" method="post"><input name="username"><input name="password" type="password"></form></body></html>',
  );
  return serveHttp((_req, res) => writeAnswer(res, 200, { 'content-type': 'text/html; charset=utf-8' }, page));
}

/** Faithful bodies and statuses, every one labelled text/plain instead of application/json. */
export function wrongContentType(): Promise<LoopbackServer> {
  return serveHttp((req, res) => {
    const answer = faithfulAnswer(req);
    writeAnswer(res, answer.status, { 'content-type': 'text/plain; charset=utf-8' }, bodyBytes(answer));
  });
}

/** Faithful statuses and headers, every body cut off in the middle (with a matching content-length). */
export function truncatedJson(): Promise<LoopbackServer> {
  return serveHttp((req, res) => {
    const answer = faithfulAnswer(req);
    const body = bodyBytes(answer);
    writeAnswer(res, answer.status, answer.headers, body.subarray(0, Math.floor(body.byteLength / 2)));
  });
}

/** The most the huge-body server sends before it gives up on a client that keeps reading. */
const HUGE_BODY_LIMIT_BYTES = 256 * 1024 * 1024;

/** Streams white space inside a JSON array until the client goes away; returns how many bytes it wrote. */
async function streamEndlessly(res: ServerResponse, declareLength: boolean): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  res.writeHead(200, { 'content-type': 'application/json', ...(declareLength ? { 'content-length': HUGE_BODY_LIMIT_BYTES + 2 } : {}) });
  res.write('[');
  let open = true;
  let wake = () => undefined as void;
  res.on('close', () => {
    open = false;
    wake();
  });
  res.on('drain', () => wake());
  let sent = 0;
  for (; open && sent < HUGE_BODY_LIMIT_BYTES; sent += chunk.byteLength) {
    if (!res.write(chunk)) await new Promise<void>((resolve) => (wake = resolve));
  }
  res.end(']');
  return sent;
}

/**
 * Answers the admin projects requests with a body that never seems to end (white space inside a JSON
 * array), either announced by content-length or chunked without one; everything else is faithful.
 * `sentBytes` tells how much it managed to write, which shows whether the client stopped reading.
 */
export async function hugeBody(options: { declareLength: boolean }): Promise<LoopbackServer & { sentBytes(): number }> {
  let total = 0;
  const server = await serveHttp(async (req, res) => {
    if (isAdminProjectsRequest(req)) total += await streamEndlessly(res, options.declareLength);
    else writeFaithful(req, res);
  });
  return { ...server, sentBytes: () => total };
}

/** Answers the admin projects requests with a valid projects list whose extra field nests `depth` arrays deep. */
export function deeplyNestedJson(depth: number): Promise<LoopbackServer> {
  const body = Buffer.from(`{"version":1,"projects":[],"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`);
  return serveHttp((req, res) => (isAdminProjectsRequest(req) ? writeAnswer(res, 200, { 'content-type': 'application/json' }, body) : writeFaithful(req, res)));
}

/**
 * Answers every request without a token as the reference does (401, the AuthenticationRequired error
 * object), with one more field nested `depth` levels deep: an extra field the document allows.
 */
export function deeplyNestedErrorObject(depth: number): Promise<LoopbackServer> {
  return serveHttp((req, res) => {
    if (req.headers.authorization !== undefined) return writeFaithful(req, res);
    const answer = faithfulAnswer(req);
    const body = bodyBytes(answer)
      .toString()
      .replace(/}$/, `,"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    writeAnswer(res, answer.status, answer.headers, Buffer.from(body));
  });
}

/** Answers the admin projects requests with JSON whose bytes are not UTF-8 (a Latin-1 "é" in a name). */
export function invalidUtf8(): Promise<LoopbackServer> {
  const body = Buffer.concat([Buffer.from('{"version":1,"projects":[{"id":"cafe","name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}]}')]);
  return serveHttp((req, res) => (isAdminProjectsRequest(req) ? writeAnswer(res, 200, { 'content-type': 'application/json' }, body) : writeFaithful(req, res)));
}

/** Faithful answers to the admin's projects requests, their bodies led by a UTF-8 byte order mark, which RFC 8259 (8.1) forbids in JSON sent over a network. */
export function byteOrderMark(): Promise<LoopbackServer> {
  return serveHttp((req, res) => {
    if (!isAdminProjectsRequest(req)) return writeFaithful(req, res);
    const answer = faithfulAnswer(req);
    writeAnswer(res, answer.status, answer.headers, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bodyBytes(answer)]));
  });
}

/** Answers every request 302 to the same path on `otherOrigin`. */
export function redirectingTo(otherOrigin: string): Promise<LoopbackServer> {
  return serveHttp((req, res) => writeAnswer(res, 302, { location: `${otherOrigin}${req.url ?? '/'}` }, Buffer.alloc(0)));
}

/** Answers with `status` and a JSON error object the requests `when` picks (all by default); the rest faithfully. */
export function answeringWith(status: number, when: (req: IncomingMessage) => boolean = () => true): Promise<LoopbackServer> {
  const body = Buffer.from(JSON.stringify({ id: 'e1', name: 'Unexpected', message: `answered ${status} on purpose` }));
  return serveHttp((req, res) => (when(req) ? writeAnswer(res, status, { 'content-type': 'application/json' }, body) : writeFaithful(req, res)));
}

/**
 * Terminal sequences, bidi overrides, HTML and Markdown, and GitHub's workflow commands (the legacy `##[…]` form,
 * which its runner finds anywhere in a line) that a target may write into any text: shown, never obeyed.
 */
export const HOSTILE_TEXT =
  '##[error]x\u001b[2J\u001b]8;;http://evil.invalid\u0007click\u001b]8;;\u0007\u009b31m\u202eevil\u2066 <img src=x onerror="window.injected=1"><script>window.injected=2</script> `|*_[x](javascript:alert(1)) @team\n# forged';

/** Field names every object inherits, and hostile text, as names of fields the document does not define. */
export const HOSTILE_FIELD_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', HOSTILE_TEXT];

/**
 * Faithful, except that it writes hostile text everywhere the suite quotes a target: the first project's
 * mode and extra fields named after inherited properties and after the text, the 403's error name and
 * content-type (a C1 control, as a header may hold one), the unknown token's error name, a version header.
 */
export function hostileText(): Promise<LoopbackServer> {
  return serveHttp((req, res) => {
    const answer = faithfulAnswer(req);
    const headers: Record<string, string> = { ...answer.headers, 'x-app-version': '7.0.0 \u009b2J\u00ad' };
    let text = JSON.stringify(answer.body);
    if (isAdminProjectsRequest(req) && answer.status === 200) {
      const body = answer.body as { projects: Record<string, unknown>[] };
      body.projects[0].mode = HOSTILE_TEXT;
      const extra = HOSTILE_FIELD_NAMES.map((name) => `${JSON.stringify(name)}:${JSON.stringify(HOSTILE_TEXT)}`).join(',');
      text = JSON.stringify(body).replace('{"id"', `{${extra},"id"`);
    } else if (answer.status === 403 || answer.status === 404) {
      text = JSON.stringify({ ...(answer.body as object), name: HOSTILE_TEXT });
      if (answer.status === 403) headers['content-type'] = 'application/json; charset=utf-8; x=\u009b31m';
    }
    writeAnswer(res, answer.status, headers, Buffer.from(text));
  });
}

/** Starts a server, hands it to `use`, and closes it whatever happens. */
export async function withServer<S extends LoopbackServer, T>(start: Promise<S>, use: (server: S) => Promise<T>): Promise<T> {
  const server = await start;
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

/**
 * How long a run against a hostile target may take: seconds alone, but the self-tests share two cores.
 * Generous, yet far below what a hang or an unbounded read would cost.
 */
export const RUN_BOUND_MS = 90_000;

/**
 * How far past CONFORMANCE_TIMEOUT_MS, the deadline users are promised, a request may end in a self-test: timers
 * and a machine loaded by other work (a CI runner at a load of 8 on two cores), never a hang or a wait the
 * suite must not take. Every test that holds a request to its deadline takes this slack, and no other.
 */
export const DEADLINE_SLACK_MS = 3000;

/** The reason conformance.json gives for a clause's outcome, or would give for a run judged in this process. */
export function reasonOf(run: SuiteRun | { reasons: Record<string, string> }, id: string): string {
  if ('reasons' in run) return run.reasons[id] ?? '';
  return run.report?.clauses.find((c) => c.id === id)?.reason ?? '';
}

/** A short per-request timeout and an overall bound, so that a stalling target costs seconds. */
export const QUICK_TIMEOUTS = { CONFORMANCE_TIMEOUT_MS: '1500', CONFORMANCE_RUN_TIMEOUT_MS: '60000' };

/**
 * Runs the suite against `baseUrl` with the reference credentials, in this process, only the given clauses judged:
 * the reports, the lines and the exit code the command's run would give (support/run-clauses.ts).
 */
export function runAgainst(baseUrl: string, clauses: string[], overrides: Record<string, string> = {}): Promise<SuiteRun> {
  return runClauses(referenceTargetEnv(baseUrl, { ...QUICK_TIMEOUTS, ...overrides }), clauses);
}

/** A run that ends with the given verdict, its exit code (1 for a violation, 3 for no verdict) and clause outcomes, within the run bound. */
export function expectRun(run: SuiteRun, verdict: 'fail' | 'error', outcomes: Record<string, string>): void {
  expect(run.exitCode, run.stdout + run.stderr).toBe(verdict === 'fail' ? 1 : 3);
  expect(run.report?.verdict).toBe(verdict);
  expect(statusesOf(run.report)).toMatchObject(outcomes);
  expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
}
