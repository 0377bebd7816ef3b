import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { respond, type ReferenceRequest, type ReferenceResponse } from './respond.ts';

/** A change to the faithful behaviour, served under `/variants/<name>`. */
export interface Variant {
  name: string;
  /** How the served behaviour differs from the faithful one, in one line. */
  description: string;
  transform(request: ReferenceRequest, faithful: () => ReferenceResponse): ReferenceResponse;
}

const VARIANT_PREFIX = /^\/variants\/([^/]+)(\/.*)$/;

/** How a variant answers one request, the faithful answer when there is no variant. */
export function answer(request: ReferenceRequest, variant?: Variant): ReferenceResponse {
  return variant ? variant.transform(request, () => respond(request)) : respond(request);
}

function toRequest(req: IncomingMessage, pathname: string, url: URL): ReferenceRequest {
  return { method: req.method ?? 'GET', path: pathname, query: url.searchParams, authorization: req.headers.authorization, origin: '', now: Date.now() };
}

/** The answer as it goes on the wire: the same text whether served over HTTP or handed to the judge in process. */
export function serialise(response: ReferenceResponse): { status: number; headers: Record<string, string>; text: string } {
  const text = response.raw ? String(response.body) : JSON.stringify(response.body);
  return { status: response.status, headers: { ...response.headers, 'content-length': String(Buffer.byteLength(text)) }, text };
}

function write(res: ServerResponse, response: ReferenceResponse): void {
  const { status, headers, text } = serialise(response);
  res.writeHead(status, headers);
  res.end(text);
}

function handle(req: IncomingMessage, res: ServerResponse, variants: Map<string, Variant>): void {
  const url = new URL(req.url ?? '/', 'http://reference.invalid');
  const match = VARIANT_PREFIX.exec(url.pathname);
  const variant = match ? variants.get(match[1]) : undefined;
  if (match && !variant) return write(res, { status: 404, headers: { 'content-type': 'text/plain' }, body: `unknown variant ${match[1]}`, raw: true });
  const request = toRequest(req, match ? match[2] : url.pathname, url);
  request.origin = `http://${req.headers.host ?? '127.0.0.1'}${match ? `/variants/${match[1]}` : ''}`;
  write(res, answer(request, variant));
}

/** Starts the reference implementation on loopback; port 0 picks a free port. */
export async function startReferenceServer(port = 0, variants: Variant[] = []): Promise<{ server: Server; url: string }> {
  const byName = new Map(variants.map((v) => [v.name, v]));
  const server = createServer((req, res) => handle(req, res, byName));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
