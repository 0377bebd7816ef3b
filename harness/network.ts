import { Agent, Pool, buildConnector, type Dispatcher } from 'undici';
import { skipContinue } from './interim.ts';

/** The connections of one run to one target; closed when its answers are recorded. */
export interface Network {
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

/** A pool whose every connection skips 100 (Continue) answers before undici reads them (harness/interim.ts). */
function poolSkippingContinue(origin: URL | string, options: Pool.Options): Pool {
  const connect = typeof options.connect === 'function' ? options.connect : buildConnector({ ...options.connect });
  return new Pool(origin, {
    ...options,
    connect: (opts, callback) => connect(opts, (...result) => (result[0] === null ? callback(null, skipContinue(result[1])) : callback(result[0], null))),
  });
}

/**
 * Opens the connections of a run. Every request has a connection of its own (pipelining 0, no keep-alive),
 * so that an interim answer can only come at the start of one; connecting is bounded by the request deadline.
 */
export function openNetwork(timeoutMs: number): Network {
  const dispatcher = new Agent({ factory: poolSkippingContinue, pipelining: 0, connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  return { dispatcher, close: () => dispatcher.destroy() };
}
