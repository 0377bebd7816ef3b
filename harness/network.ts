import tls from 'node:tls';
import { Agent, EnvHttpProxyAgent, Pool, buildConnector, type Dispatcher } from 'undici';
import type { NetworkSettings } from './config.ts';
import { skipContinue } from './interim.ts';

/** The connections of one run to one target; closed when its answers are recorded. */
export interface Network {
  dispatcher: Dispatcher;
  /** The proxies that may carry requests, credentials left out: to tell a proxy's failure from the target's. */
  proxies: URL[];
  settings: NetworkSettings;
  close(): Promise<void>;
}

/** No proxy, no certificate of the suite's own: the embedded reference target, in the runner's process. */
export const DIRECT: NetworkSettings = { proxy: {} };

/** A pool whose every connection skips 100 (Continue) answers before undici reads them (harness/interim.ts). */
function poolSkippingContinue(origin: URL | string, options: Pool.Options): Pool {
  const connect = typeof options.connect === 'function' ? options.connect : buildConnector({ ...options.connect });
  return new Pool(origin, {
    ...options,
    connect: (opts, callback) => connect(opts, (...result) => (result[0] === null ? callback(null, skipContinue(result[1])) : callback(result[0], null))),
  });
}

/** The authorities trusted: the public ones, plus the private ones configured. */
function trusted(settings: NetworkSettings): tls.SecureContextOptions {
  return settings.ca === undefined ? {} : { ca: [...tls.rootCertificates, ...settings.ca] };
}

/** TLS towards the target: whom to trust, and the certificate to present where a gateway demands one. */
function targetTls(settings: NetworkSettings, timeoutMs: number) {
  const certificate = settings.clientCertificate && { cert: settings.clientCertificate.cert, key: settings.clientCertificate.key };
  return { ...trusted(settings), ...certificate, timeout: timeoutMs };
}

function withoutCredentials(raw: string): URL {
  const url = new URL(raw);
  url.username = '';
  url.password = '';
  return url;
}

/**
 * Opens the connections of a run. Every request has a connection of its own (pipelining 0, no keep-alive),
 * so that an interim answer can only come at the start of one; connecting is bounded by the request deadline.
 * HTTPS_PROXY carries https targets (HTTP_PROXY when it is unset) through a CONNECT tunnel, HTTP_PROXY
 * plain http ones as absolute-form requests, as curl does; NO_PROXY names the hosts reached directly.
 */
export function openNetwork(timeoutMs: number, settings: NetworkSettings = DIRECT): Network {
  const tlsOptions = targetTls(settings, timeoutMs);
  const common = { factory: poolSkippingContinue, pipelining: 0, connect: tlsOptions, headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
  const { http = '', https = '', noProxy = '' } = settings.proxy;
  const dispatcher = http === '' && https === ''
    ? new Agent(common)
    // Empty strings, not undefined: undici would otherwise read the process's own variables behind the configuration's back.
    : new EnvHttpProxyAgent({ ...common, httpProxy: http, httpsProxy: https, noProxy, requestTls: tlsOptions, proxyTls: { ...trusted(settings), timeout: timeoutMs }, proxyTunnel: false });
  const proxies = [http, https].filter((p) => p !== '').map(withoutCredentials);
  return { dispatcher, proxies, settings, close: () => dispatcher.destroy() };
}
