import type { IncomingHttpHeaders } from 'node:http';
import { ACCEPTED_CODINGS, readBody } from './body.ts';
import type { Credential, Exchange, ExchangeRequest } from './exchange.ts';
import type { DecodedBodies } from './decoded-bodies.ts';
import type { Network } from './network.ts';
import { nextTry } from './rate-limit.ts';
import { deadlinePassed, describeTransportError, unaskedTransferCoding, type FailureContext } from './transport-failures.ts';

export interface HttpOptions {
  baseUrl: string;
  timeoutMs: number;
  maxBodyBytes: number;
  userAgent: string;
  tokenFor(credential: Credential): string | undefined;
  /** The run's connections to the target (harness/transport/network.ts). */
  network: Network;
  /** The run's bodies decoded so far: one like an earlier one shares its text. */
  bodies: DecodedBodies;
  /** Aborts every request when the run stops (Ctrl+C): what they were doing is dropped. */
  stop?: AbortSignal;
}

/** A header's value as one string; a repeated header's values joined as HTTP joins them. */
function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function versionHeaders(headers: IncomingHttpHeaders): Record<string, string> | undefined {
  const found = Object.keys(headers)
    .filter((name) => name === 'server' || name.includes('version'))
    .map((name) => [name, headerValue(headers, name)!]);
  return found.length > 0 ? Object.fromEntries(found) : undefined;
}

/** What came back of one request so far; filled in as it arrives. */
interface Answer {
  status?: number;
  contentType?: string;
  location?: string;
  versionHeaders?: Record<string, string>;
  /** Retry-After of a 429. */
  retryAfter?: string;
  bytes?: Buffer;
  failure?: string;
}

/** One GET and its whole answer, into `answer` as it arrives; throws what undici throws, or stops when `signal` aborts. */
async function fetchAnswer(url: string, headers: Record<string, string>, options: HttpOptions, signal: AbortSignal, answer: Answer): Promise<void> {
  // One connection per request (`reset`); undici never follows a redirect on its own.
  const { origin, pathname, search } = new URL(url);
  const response = await options.network.dispatcher.request({ origin, path: `${pathname}${search}`, method: 'GET', headers, signal, reset: true });
  answer.status = response.statusCode;
  answer.contentType = headerValue(response.headers, 'content-type');
  answer.location = headerValue(response.headers, 'location');
  answer.versionHeaders = versionHeaders(response.headers);
  answer.retryAfter = headerValue(response.headers, 'retry-after');
  // RFC 9110, 10.1.4: a server applies no transfer coding but chunked unless the request's TE asks for it.
  // undici hands such a body on still coded, which the judge would take for the answer itself.
  const transfer = headerValue(response.headers, 'transfer-encoding');
  if (transfer !== undefined && !transfer.split(',').every((c) => ['chunked', 'identity'].includes(c.trim().toLowerCase()))) {
    response.body.destroy();
    answer.failure = unaskedTransferCoding(transfer);
    return;
  }
  const read = await readBody(
    response.body,
    { contentLength: headerValue(response.headers, 'content-length'), contentEncoding: headerValue(response.headers, 'content-encoding') },
    options.maxBodyBytes,
  );
  if (read.ok) answer.bytes = read.bytes;
  else answer.failure = read.failure;
}

/** What the words of a failure draw on: the request's URL, and the network settings it went through. */
function failureContext(url: string, options: HttpOptions, status: number | undefined): FailureContext {
  const { network, timeoutMs } = options;
  return {
    url: new URL(url),
    timeoutMs,
    status,
    proxies: network.proxies,
    caFile: network.settings.caFile,
    clientCertFile: network.settings.clientCertificate?.certFile,
  };
}

/** The error the connection reported itself, when undici put a vaguer one in its place. */
function connectionError(error: unknown, network: Network): unknown {
  const localPort = (error as { code?: string; socket?: { localPort?: number } }).socket?.localPort;
  return (error as { code?: string }).code === 'UND_ERR_SOCKET' && localPort !== undefined ? (network.connectionErrors.get(localPort) ?? error) : error;
}

/** Settles when the signal aborts, whatever the request is doing then. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** One try at the request, which stops when `deadline` aborts; what arrives after it is dropped. */
async function attempt(url: string, headers: Record<string, string>, options: HttpOptions, deadline: AbortSignal): Promise<Answer> {
  const answer: Answer = {};
  // The race holds the deadline even should a read not notice the abort.
  const outcome = await Promise.race([
    fetchAnswer(url, headers, options, deadline, answer).then(
      () => ({ error: undefined }),
      (error: unknown) => ({ error }),
    ),
    aborted(deadline).then(() => 'deadline' as const),
  ]);
  const { status, contentType, location, versionHeaders: version, retryAfter } = answer;
  const arrived = { status, contentType, location, versionHeaders: version, retryAfter };
  if (outcome === 'deadline') return { ...arrived, failure: deadlinePassed(options.timeoutMs, status) };
  if (outcome.error !== undefined)
    return { ...arrived, failure: describeTransportError(connectionError(outcome.error, options.network), failureContext(url, options, status)) };
  return { ...arrived, bytes: answer.bytes, failure: answer.failure };
}

/** Waits `ms`, or until the deadline, whichever comes first. */
function pause(ms: number, deadline: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    deadline.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * What the request's deadline is aborted with once its answer is in, which lets go of whatever still listens for
 * it: one value made once, not an AbortError with its stack for each of a fleet's hundreds of thousands of requests.
 */
const ANSWERED = Object.freeze({ answered: true });

/** The request's answer within `timeoutMs`, every try included: a 429 is tried again (harness/transport/rate-limit.ts). */
async function answerWithin(url: string, headers: Record<string, string>, options: HttpOptions): Promise<Answer> {
  const deadline = new AbortController();
  const endsAt = Date.now() + options.timeoutMs;
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const stop = () => deadline.abort();
  if (options.stop?.aborted) stop();
  options.stop?.addEventListener('abort', stop, { once: true });
  try {
    for (let retries = 0; ; retries += 1) {
      const answer = await attempt(url, headers, options, deadline.signal);
      if (answer.status !== 429 || answer.failure !== undefined) return answer;
      const next = nextTry(answer.retryAfter, retries, endsAt - Date.now(), options.timeoutMs);
      if ('failure' in next) return { ...answer, bytes: undefined, failure: next.failure };
      await pause(next.waitMs, deadline.signal);
    }
  } finally {
    clearTimeout(timer);
    options.stop?.removeEventListener('abort', stop);
    deadline.abort(ANSWERED);
  }
}

/**
 * Sends one request and reads its whole answer within `timeoutMs`, whatever the target sends or withholds;
 * never throws, never follows a redirect, never reads more than maxBodyBytes.
 */
export async function send(request: ExchangeRequest, options: HttpOptions): Promise<Exchange> {
  const url = options.baseUrl + request.path;
  const exchange: Exchange = { request, url, startedAt: Date.now(), durationMs: 0, bodyBytes: 0 };
  const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': ACCEPTED_CODINGS, 'user-agent': options.userAgent };
  const token = options.tokenFor(request.credential);
  if (token !== undefined) headers.authorization = token;
  const answer = await answerWithin(url, headers, options);
  exchange.status = answer.status;
  exchange.contentType = answer.contentType;
  exchange.location = answer.location;
  exchange.versionHeaders = answer.versionHeaders;
  exchange.failure = answer.failure;
  if (answer.bytes !== undefined) {
    exchange.bodyBytes = answer.bytes.byteLength;
    const { text, error } = options.bodies.decode(answer.bytes);
    if (text !== undefined) exchange.bodyText = text;
    else exchange.bodyError = error;
  }
  exchange.durationMs = Date.now() - exchange.startedAt;
  return exchange;
}
