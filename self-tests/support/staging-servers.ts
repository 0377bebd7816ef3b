import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { KeyPair } from './certificates.ts';
import { bodyBytes, faithfulAnswer, listen, type LoopbackServer, type SeenRequest } from './hostile-servers.ts';

// What stands between the suite and a target on a staging network, on loopback: an HTTPS target with a
// private authority's certificate, a gateway that demands a client certificate, a forwarding proxy.

function writeFaithful(req: IncomingMessage, res: ServerResponse): void {
  const answer = faithfulAnswer(req);
  const body = bodyBytes(answer);
  res.writeHead(answer.status, { ...answer.headers, 'content-length': body.byteLength });
  res.end(body);
}

export interface HttpsTarget extends LoopbackServer {
  /** The common name of the client certificate each request came with, in arrival order. */
  clientNames: (string | undefined)[];
}

/**
 * A faithful target over HTTPS that presents `pair`; with `clientCa`, a gateway that accepts only clients
 * with a certificate signed by that authority and refuses the handshake otherwise.
 */
export async function httpsTarget(pair: KeyPair, clientCa?: string): Promise<HttpsTarget> {
  const seen: SeenRequest[] = [];
  const clientNames: (string | undefined)[] = [];
  const gate = clientCa === undefined ? {} : { ca: [clientCa], requestCert: true, rejectUnauthorized: true };
  const server = createHttpsServer({ cert: pair.cert, key: pair.key, ...gate }, (req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    const subject = (req.socket as TLSSocket).getPeerCertificate().subject as { CN?: string } | undefined;
    clientNames.push(subject?.CN);
    writeFaithful(req, res);
  });
  server.on('tlsClientError', () => undefined);
  const listening = await listen(server, seen);
  return { ...listening, url: listening.url.replace(/^http:/, 'https:'), clientNames };
}

/** A faithful target over plain HTTP. */
export function httpTarget(): Promise<LoopbackServer> {
  const seen: SeenRequest[] = [];
  return listen(
    createHttpServer((req, res) => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
      writeFaithful(req, res);
    }),
    seen,
  );
}

export interface ForwardingProxy extends LoopbackServer {
  /** The proxy-authorization header of each request or tunnel, in arrival order. */
  proxyAuthorizations: (string | undefined)[];
}

const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';

/**
 * A forwarding proxy that records what passed through it (`seen`: GET with the absolute URL, or CONNECT
 * with host and port) and carries it on, to loopback addresses only; anything else it refuses with 403.
 */
export async function forwardingProxy(): Promise<ForwardingProxy> {
  const seen: SeenRequest[] = [];
  const proxyAuthorizations: (string | undefined)[] = [];
  const upstreams = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    proxyAuthorizations.push(req.headers['proxy-authorization']);
    const target = new URL(req.url ?? '/', 'http://invalid.invalid');
    if (!isLoopback(target.hostname)) return void res.writeHead(403).end();
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const forwarded = httpRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', path: req.url ?? '' });
    proxyAuthorizations.push(req.headers['proxy-authorization']);
    client.on('error', () => undefined);
    const [host = '', port = ''] = (req.url ?? '').split(/:(?=\d+$)/);
    if (!isLoopback(host)) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).on('error', () => undefined);
      client.pipe(upstream);
    });
    upstreams.add(upstream);
    upstream.on('error', () => client.destroy()).on('close', () => upstreams.delete(upstream));
  });
  const listening = await listen(server, seen);
  const close = async () => {
    for (const upstream of upstreams) upstream.destroy();
    await listening.close();
  };
  return { ...listening, close, proxyAuthorizations };
}
