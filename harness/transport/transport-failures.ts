import { maxHeaderSize } from 'node:http';

// Every way a request can fail to bring back a complete answer, in words: what happened, and the fix
// where there is one. Nothing else in the suite words a transport failure.

/**
 * Text the target chose (a coding's name, a certificate's names), quoted, so that it cannot pass for the
 * suite's own words. Never cut here: a cut made before redaction would leave a part of a secret the target
 * echoed inside the words; whoever shows them redacts first, then cuts (harness/judging/verdicts.ts).
 */
function quoted(text: string): string {
  return JSON.stringify(text);
}

export function bodyOverCap(maxBytes: number): string {
  return `the body is larger than ${maxBytes} bytes (CONFORMANCE_MAX_BODY_BYTES); reading stopped`;
}

export function decodedOverCap(coding: string, maxBytes: number): string {
  return `the body, decoded from ${coding}, is larger than ${maxBytes} bytes (CONFORMANCE_MAX_BODY_BYTES); decoding stopped`;
}

export function undecodableBody(coding: string, detail: string): string {
  return `the body is labelled Content-Encoding: ${coding} but cannot be decoded as ${coding} (${detail})`;
}

/** A transfer coding other than chunked, which the suite never asks for (it sends no TE) and undici does not undo. */
export function unaskedTransferCoding(codings: string): string {
  return `the answer is sent with Transfer-Encoding: ${quoted(codings)}; the suite asks for no transfer coding but chunked (it sends no TE), and reads no other`;
}

export function unknownCoding(coding: string, accepted: string): string {
  return `the body is labelled Content-Encoding: ${quoted(coding)}, a coding the suite cannot decode (it asks for ${accepted})`;
}

/** The deadline passed: before any answer, or while its body was still arriving. */
export function deadlinePassed(timeoutMs: number, status: number | undefined): string {
  return status === undefined
    ? `no answer within ${timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)`
    : `the body was still arriving ${timeoutMs} ms after the request (CONFORMANCE_TIMEOUT_MS); reading stopped`;
}

/** A configured proxy, credentials left out, with the variable that gave it and the schemes it carries. */
export interface Proxy {
  variable: 'HTTP_PROXY' | 'HTTPS_PROXY';
  url: URL;
  schemes: string[];
}

/** The target kept answering 429 Too Many Requests. */
export function rateLimitPersists(answers: number): string {
  return `answered 429 Too Many Requests ${answers} times, though the suite waited before each retry; let the suite's token make more requests, or lower CONFORMANCE_CONCURRENCY`;
}

export function rateLimitWaitTooLong(askedMs: number, maxWaitMs: number): string {
  return `answered 429 Too Many Requests and asked the suite to wait ${Math.ceil(askedMs / 1000)} s (Retry-After), more than the ${maxWaitMs / 1000} s it waits; let the suite's token make more requests`;
}

export function rateLimitOverDeadline(waitMs: number, timeoutMs: number): string {
  return `answered 429 Too Many Requests; waiting ${waitMs} ms to retry would pass the request's deadline (CONFORMANCE_TIMEOUT_MS, ${timeoutMs} ms)`;
}

/** What the words of a failure may draw on besides the error: where the request went, and how. */
export interface FailureContext {
  url: URL;
  timeoutMs: number;
  /** The status of the answer, when its head had arrived. */
  status?: number;
  proxies: Proxy[];
  caFile?: string;
  clientCertFile?: string;
}

/** An error as Node and undici throw them: a code, and for some the address, host name or certificate involved. */
interface TransportError {
  message?: string;
  code?: unknown;
  reason?: string;
  address?: string;
  port?: number;
  hostname?: string;
  cert?: { subjectaltname?: string; subject?: { CN?: string } };
}

/** Certificate checks that fail because no trusted authority signed the chain (OpenSSL's verify codes, as Node names them). */
const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** Answers to a TLS handshake that are not TLS: the port speaks something else, plain HTTP most often. */
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST', 'ERR_SSL_UNKNOWN_PROTOCOL']);

/** TLS alerts a server sends about the client's certificate (or its absence). */
const CLIENT_CERTIFICATE_ALERTS = new Set([
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
]);

const DEADLINE_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function certificateWords(err: TransportError, code: string, host: string, context: FailureContext): string | undefined {
  if (UNKNOWN_AUTHORITY.has(code)) {
    const selfSigned = code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ? ' (it is self-signed)' : '';
    return context.caFile === undefined
      ? `the certificate of ${host} is signed by an unknown authority${selfSigned}: see CONFORMANCE_CA_FILE (${code})`
      : `the certificate of ${host} is signed by an authority${selfSigned} that neither the public ones nor CONFORMANCE_CA_FILE (${context.caFile}) include (${code})`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = err.cert?.subjectaltname ?? err.cert?.subject?.CN;
    return `the certificate of ${host} is for ${names === undefined ? 'another host name' : quoted(names)}, not for ${context.url.hostname}: give a host name it names in the base URL (${code})`;
  }
  if (code === 'CERT_HAS_EXPIRED') return `the certificate of ${host} has expired; the target must renew it (${code})`;
  if (code === 'CERT_NOT_YET_VALID') return `the certificate of ${host} is not valid yet; check the clocks of this machine and of the target (${code})`;
  return undefined;
}

function handshakeWords(err: TransportError, code: string, host: string, context: FailureContext): string | undefined {
  if (NOT_TLS.has(code))
    return `${host} does not speak TLS (it answered the handshake with something else, plain HTTP most likely): use http:// in the base URL (${code})`;
  const alert = err.reason ?? code;
  if (code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' && context.clientCertFile === undefined)
    return `${host} demands a client certificate: set CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY (${code})`;
  if (CLIENT_CERTIFICATE_ALERTS.has(code) || (code === 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' && context.clientCertFile !== undefined)) {
    return context.clientCertFile === undefined
      ? `${host} refused the TLS handshake (${alert}); if it demands a client certificate, set CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY (${code})`
      : `${host} refused the client certificate of CONFORMANCE_CLIENT_CERT (${context.clientCertFile}): ${alert} (${code})`;
  }
  if (code.startsWith('ERR_SSL_'))
    return `the TLS handshake with ${host} failed: ${alert}${context.clientCertFile === undefined ? '; if it demands a client certificate, set CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY' : ''} (${code})`;
  return undefined;
}

/** The proxy a connection failure is about, when its address or host name is a proxy's. */
function proxyOf(err: TransportError, context: FailureContext): Proxy | undefined {
  const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return context.proxies.find(({ url }) =>
    err.hostname !== undefined
      ? err.hostname === url.hostname
      : err.port === portOf(url) && err.address !== undefined && url.hostname.replace(/^\[|\]$/g, '') === err.address,
  );
}

function connectionWords(err: TransportError, code: string, host: string, context: FailureContext): string | undefined {
  const proxy = proxyOf(err, context);
  const who = proxy === undefined ? host : `the proxy ${proxy.url.host} (${proxy.variable})`;
  const fix = proxy === undefined ? 'check the base URL' : `check ${proxy.variable}`;
  if (code === 'ENOTFOUND')
    return `the host name ${proxy === undefined ? context.url.hostname : `of the proxy ${proxy.url.hostname} (${proxy.variable})`} is not known to DNS: ${fix} (${code})`;
  if (code === 'EAI_AGAIN')
    return `the host name ${proxy === undefined ? context.url.hostname : `of the proxy ${proxy.url.hostname} (${proxy.variable})`} could not be looked up just now (DNS did not answer; ${code})`;
  if (code === 'ECONNREFUSED') return `${who} refused the connection: nothing listens there; ${fix} (${code})`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${who} could not be reached: no route to it from this machine (${code})`;
  if (code === 'ETIMEDOUT') return `${who} did not accept the connection in time (${code})`;
  return undefined;
}

function proxyWords(err: TransportError, code: string, host: string, context: FailureContext): string | undefined {
  const status =
    /Proxy response \((\d+)\)/.exec(err.message ?? '')?.[1] ?? (/Proxy Authentication Required \(407\)/.test(err.message ?? '') ? '407' : undefined);
  if (status === undefined) return undefined;
  const proxy = context.proxies.find((p) => p.schemes.includes(context.url.protocol));
  const who = proxy === undefined ? 'the proxy' : `the proxy ${proxy.url.host} (${proxy.variable})`;
  if (status === '407') return `${who} demands authentication (407): give its user and password in the proxy URL, as http://user:password@host:port (${code})`;
  return `${who} refused to carry the request to ${host}: it answered ${status}; NO_PROXY lists the hosts reached without it (${code})`;
}

/** Failures of the HTTP exchange itself, once connected: the answer's head or body is not what HTTP/1.1 allows. */
function exchangeWords(err: TransportError, code: string, host: string, context: FailureContext): string | undefined {
  if (code === 'UND_ERR_HEADERS_OVERFLOW') return `the answer's headers are larger than ${maxHeaderSize} bytes, the most the suite reads (${code})`;
  // With the status known, the head had come and the body broke off; without, head and body came at once and
  // their lengths disagree: a body cut short, or one also sent chunked, whose chunks undici reads instead.
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH')
    return context.status === undefined
      ? `the answer's body is not as long as its Content-Length says: it was cut short, or it came chunked as well (Transfer-Encoding: chunked beside Content-Length, which HTTP/1.1 forbids a sender; RFC 9112, 6.2) (${code})`
      : `the connection ended before the body reached its Content-Length (${code})`;
  if (code.startsWith('HPE_') || code === 'HTTPParserError')
    return `${host} answered with something that is not HTTP/1.1 (${quoted(err.message ?? '')}; ${code})`;
  // undici asserts a status of at least 100 rather than refusing one below it (a status line such as "HTTP/1.1 099 OK").
  if (code === 'ERR_ASSERTION' && /statusCode/.test(err.message ?? ''))
    return `${host} answered with a status below 100, which HTTP/1.1 does not have (${code})`;
  if (code === 'ECONNRESET')
    return context.status === undefined ? `${host} reset the connection before answering (${code})` : `the target reset the connection (${code})`;
  if (err.message !== 'other side closed') return undefined;
  if (context.status !== undefined) return `the target closed the connection before the end of the body (${code})`;
  return `${host} closed the connection before answering${closedHint(context)} (${code})`;
}

/** What a connection closed before any answer most often means, given how the request went. */
function closedHint(context: FailureContext): string {
  if (context.url.protocol === 'http:') return '; if the port speaks TLS, use https:// in the base URL';
  if (context.clientCertFile === undefined) return '; a gateway that demands a client certificate does this: see CONFORMANCE_CLIENT_CERT';
  return `; a gateway that does not accept the client certificate of CONFORMANCE_CLIENT_CERT (${context.clientCertFile}) does this`;
}

const WORDERS = [certificateWords, handshakeWords, proxyWords, connectionWords, exchangeWords];

/**
 * A failure of the connection or of the HTTP exchange, as thrown by undici or Node, as what it is; with the
 * variable that fixes it where one does. Once an answer's head has arrived, the body is said to have broken off.
 */
export function describeTransportError(error: unknown, context: FailureContext): string {
  const err = (error ?? {}) as TransportError;
  // A code is a word only where Node and undici set one: an AbortError's DOMException code is a number.
  const code = typeof err.code === 'string' ? err.code : error instanceof Error ? error.name : 'unknown';
  const host = context.url.host;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return `no connection to ${host} within ${context.timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)`;
  if (DEADLINE_CODES.has(code)) return deadlinePassed(context.timeoutMs, context.status);
  const words =
    WORDERS.reduce<string | undefined>((found, word) => found ?? word(err, code, host, context), undefined) ?? `${err.message ?? String(error)} (${code})`;
  return context.status === undefined ? words : `the body broke off after status ${context.status}: ${words}`;
}
