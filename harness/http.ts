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

/**
 * The document's objects nest five levels at most (list, projects, project, owners, owner). Recording
 * and reporting copy bodies with JSON.stringify, which recurses and overflows on a far deeper body.
 */
const MAX_JSON_DEPTH = 512;

/** How deep arrays and objects nest in a JSON text, counted without recursion. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return deepest;
}

function decodeBody(exchange: Exchange, bytes: Uint8Array): void {
  try {
    exchange.bodyText = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    exchange.jsonError = 'the body is not valid UTF-8';
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(exchange.bodyText);
  } catch (error) {
    exchange.jsonError = `the body is not JSON (${(error as Error).message})`;
    return;
  }
  // Valid JSON, but too deep to carry through the run: no verdict on it rather than a crash.
  if (nestingDepth(exchange.bodyText) > MAX_JSON_DEPTH) exchange.failure = `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels; the suite does not judge it`;
  else exchange.json = json;
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
