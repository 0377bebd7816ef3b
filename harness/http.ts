import type { Credential, Exchange, ExchangeRequest } from './exchange.ts';

export interface HttpOptions {
  baseUrl: string;
  timeoutMs: number;
  maxBodyBytes: number;
  userAgent: string;
  tokenFor(credential: Credential): string | undefined;
}

async function readCapped(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; overCap: boolean }> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    return { bytes: new Uint8Array(), overCap: true };
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.byteLength;
    // Leaving the loop cancels the locked stream; calling cancel() on it here would throw instead.
    if (total > maxBytes) return { bytes: new Uint8Array(), overCap: true };
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks), overCap: false };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no complete answer within ${timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)`;
  const cause = err.cause?.code ?? err.cause?.message;
  return cause ? `${err.message ?? 'request failed'}: ${cause}` : (err.message ?? String(error));
}

function versionHeaders(headers: Headers): Record<string, string> | undefined {
  const found = [...headers].filter(([name]) => name === 'server' || name.includes('version'));
  return found.length > 0 ? Object.fromEntries(found) : undefined;
}

function decodeBody(exchange: Exchange, bytes: Uint8Array): void {
  try {
    exchange.bodyText = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    exchange.bodyError = 'the body is not valid UTF-8';
  }
}

/** Sends one request; never throws, never follows a redirect, never reads more than maxBodyBytes. */
export async function send(request: ExchangeRequest, options: HttpOptions): Promise<Exchange> {
  const url = options.baseUrl + request.path;
  const exchange: Exchange = { request, url, startedAt: Date.now(), durationMs: 0, bodyBytes: 0 };
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': options.userAgent };
  const token = options.tokenFor(request.credential);
  if (token !== undefined) headers.authorization = token;
  try {
    const response = await fetch(url, { headers, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
    exchange.status = response.status;
    exchange.contentType = response.headers.get('content-type') ?? undefined;
    exchange.location = response.headers.get('location') ?? undefined;
    exchange.versionHeaders = versionHeaders(response.headers);
    const { bytes, overCap } = await readCapped(response, options.maxBodyBytes);
    exchange.bodyBytes = bytes.byteLength;
    if (overCap) exchange.failure = `the body is larger than ${options.maxBodyBytes} bytes (CONFORMANCE_MAX_BODY_BYTES); reading stopped`;
    else decodeBody(exchange, bytes);
  } catch (error) {
    const failure = describeFailure(error, options.timeoutMs);
    exchange.failure = exchange.status === undefined ? failure : `the body broke off after status ${exchange.status}: ${failure}`;
  }
  exchange.durationMs = Date.now() - exchange.startedAt;
  return exchange;
}
