import type { Socket } from 'node:net';
import tls from 'node:tls';
import type { Dispatcher, Pool } from 'undici';
import { skipContinue } from './interim.ts';
import type { Proxy as ProxyKind } from './transport-failures.ts';

/** How requests reach a target, as its configuration gives it (harness/config/config.ts). */
export interface NetworkSettings {
  /** Proxy URLs as given (HTTP_PROXY, HTTPS_PROXY, NO_PROXY; the lower-case spelling wins, as with curl). */
  proxy: { http?: string; https?: string; noProxy?: string };
  /** The file of CONFORMANCE_CA_FILE, whose certificates are trusted besides the public authorities. */
  caFile?: string;
  /** PEM certificates trusted besides the public authorities: the CA file's, and NODE_EXTRA_CA_CERTS's beside them. */
  ca?: string[];
  /** The certificate presented to a gateway that demands one, and its private key. */
  clientCertificate?: { certFile: string; keyFile: string; cert: string; key: string };
}

/** The connections of one run to one target; closed when its answers are recorded. */
export interface Network {
  dispatcher: Dispatcher;
  /** The proxies that may carry requests, credentials left out: to tell a proxy's failure from the target's. */
  proxies: ProxyKind[];
  settings: NetworkSettings;
  /**
   * What a connection itself reported before undici closed it, by the connection's local port: undici
   * reports a TLS alert that arrives after the handshake (a client certificate refused) as "other side closed".
   */
  connectionErrors: Map<number, Error>;
  close(): Promise<void>;
}

/**
 * undici, loaded when the first connections open, not with the configuration: most of a run's start
 * (reading and checking the configuration, taking the report folder) needs none of it.
 */
const undici = () => require('undici') as typeof import('undici');

/** No proxy, no certificate of the suite's own: the embedded reference target, in the runner's process. */
export const DIRECT: NetworkSettings = { proxy: {} };

/**
 * undici closes a connection it will not use again (here, every one once its answer is read) by destroying it with an
 * error that says so, and Node's streams format that error's stack at once: with source maps on (under Playwright, or
 * tsx) that cost more than the request itself. Such a connection is closed without it; undici, whose answer is
 * complete, reads no error from a connection that closed.
 */
function closedQuietly(socket: Socket): Socket {
  const destroy = socket.destroy.bind(socket);
  socket.destroy = (error?: Error) => destroy((error as { code?: string } | undefined)?.code === 'UND_ERR_INFO' ? undefined : error);
  return socket;
}

/**
 * Pools whose every connection skips 100 (Continue) answers before undici reads them (harness/transport/interim.ts)
 * and notes the first error it reports itself.
 */
function poolFactory(connectionErrors: Map<number, Error>) {
  const watched = (socket: Socket) => {
    // Read now: a destroyed socket no longer knows its port.
    const { localPort } = socket;
    if (localPort !== undefined) socket.once('error', (error) => connectionErrors.set(localPort, error));
    return skipContinue(closedQuietly(socket));
  };
  return (origin: URL | string, options: Pool.Options): Pool => {
    const { Pool, buildConnector } = undici();
    const connect = typeof options.connect === 'function' ? options.connect : buildConnector({ ...options.connect });
    return new Pool(origin, {
      ...options,
      connect: (opts, callback) => connect(opts, (...result) => (result[0] === null ? callback(null, watched(result[1])) : callback(result[0], null))),
    });
  };
}

/** The authorities trusted: the public ones, plus the private ones configured. */
function trusted(settings: NetworkSettings): tls.SecureContextOptions {
  return settings.ca === undefined ? {} : { ca: [...tls.rootCertificates, ...settings.ca] };
}

/**
 * TLS towards the target: whom to trust, and the certificate to present where a gateway demands one. One
 * context for the run: reading a few hundred authorities afresh for every connection costs more than the request.
 * Certificates are always verified, whatever NODE_TLS_REJECT_UNAUTHORIZED says: a verdict on a deployment whose
 * certificate no one checked would not be about that deployment. A private authority is CONFORMANCE_CA_FILE.
 */
function targetTls(settings: NetworkSettings, timeoutMs: number) {
  const certificate = settings.clientCertificate && { cert: settings.clientCertificate.cert, key: settings.clientCertificate.key };
  const custom = settings.ca !== undefined || certificate !== undefined;
  return {
    ...(custom ? { secureContext: tls.createSecureContext({ ...trusted(settings), ...certificate }) } : {}),
    rejectUnauthorized: true,
    timeout: timeoutMs,
  };
}

function withoutCredentials(raw: string): URL {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  return url;
}

/** The configured proxies and what each carries: HTTPS_PROXY https targets, HTTP_PROXY http ones and https ones too when HTTPS_PROXY is unset. */
function proxiesOf({ http = '', https = '' }: NetworkSettings['proxy']): ProxyKind[] {
  const proxies: ProxyKind[] = [];
  if (https !== '') proxies.push({ variable: 'HTTPS_PROXY', url: withoutCredentials(https), schemes: ['https:'] });
  if (http !== '') proxies.push({ variable: 'HTTP_PROXY', url: withoutCredentials(http), schemes: https === '' ? ['http:', 'https:'] : ['http:'] });
  return proxies;
}

/**
 * Opens the connections of a run. Every request has a connection of its own (pipelining 0, no keep-alive),
 * so that an interim answer can only come at the start of one; connecting is bounded by the request deadline.
 * HTTPS_PROXY carries https targets (HTTP_PROXY when it is unset) through a CONNECT tunnel, HTTP_PROXY
 * plain http ones as absolute-form requests, as curl does; NO_PROXY names the hosts reached directly.
 */
export function openNetwork(timeoutMs: number, settings: NetworkSettings = DIRECT): Network {
  const tlsOptions = targetTls(settings, timeoutMs);
  const connectionErrors = new Map<number, Error>();
  const common = { factory: poolFactory(connectionErrors), pipelining: 0, connect: tlsOptions, headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  const { http = '', https = '', noProxy = '' } = settings.proxy;
  const { Agent, EnvHttpProxyAgent } = undici();
  const dispatcher =
    http === '' && https === ''
      ? new Agent(common)
      : // Empty strings, not undefined: undici would otherwise read the process's own variables behind the configuration's back.
        new EnvHttpProxyAgent({
          ...common,
          httpProxy: http,
          httpsProxy: https,
          noProxy,
          requestTls: tlsOptions,
          proxyTls: { ...(settings.ca === undefined ? {} : { secureContext: tls.createSecureContext(trusted(settings)) }), timeout: timeoutMs },
          proxyTunnel: false,
        });
  return { dispatcher, proxies: proxiesOf(settings.proxy), settings, connectionErrors, close: () => dispatcher.destroy() };
}
