import type { TargetConfig } from '../config/config.ts';
import type { Credential, Exchange, ExchangeRequest } from '../transport/exchange.ts';
import { DecodedBodies } from '../transport/decoded-bodies.ts';
import { send } from '../transport/http.ts';
import { DIRECT, openNetwork } from '../transport/network.ts';
import { descriptionRequest, makeRunSecrets, requestPlan, versionRequest, type RunSecrets } from './plan.ts';
import { SUITE_VERSION } from '../contracts/run-identity.ts';
import { originOf, withinOriginBudget } from './politeness.ts';

/** Every answer of one run, held in memory only: it holds the secrets as sent. Every clause judges these answers. */
export interface Recording {
  run: RunSecrets;
  startedAt: string;
  exchanges: Exchange[];
}

export const keyOf = (request: Pick<ExchangeRequest, 'path' | 'credential'>) => `${request.credential} ${request.path}`;

function credentials(config: TargetConfig, run: RunSecrets): (c: Credential) => string | undefined {
  const tokens = new Map<Credential, string>([
    ['admin', config.adminToken],
    ['invalid', run.invalidToken],
  ]);
  for (const f of config.forbidden) tokens.set(f.credential, f.token);
  return (c) => tokens.get(c);
}

/** Runs the tasks with at most `lanes` of them in flight at once, results in task order. */
export async function bounded<T>(tasks: (() => Promise<T>)[], lanes: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < tasks.length; i = next++) results[i] = await tasks[i]();
  };
  await Promise.all(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
  return results;
}

/** What stands for a request a stopped run did not send: its recording is dropped (run/judge-run.ts), never judged. */
const notSent = (request: ExchangeRequest, baseUrl: string): Exchange => ({
  request,
  url: baseUrl + request.path,
  startedAt: Date.now(),
  durationMs: 0,
  bodyBytes: 0,
  failure: 'not sent: the run was stopped first',
});

/** Sends one request of a run as its recording sends it: its tokens, bounds and network, within the origin's budget. */
export interface Sender {
  send(request: ExchangeRequest): () => Promise<Exchange>;
  close(): Promise<void> | void;
}

/** The sender of one run's requests, for its recording and for the confirmations of its failures (confirm.ts). */
export function senderOf(config: TargetConfig, run: RunSecrets, stop?: AbortSignal): Sender {
  const network = openNetwork(config.timeoutMs, config.embedded ? DIRECT : config.network);
  const options = {
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    maxBodyBytes: config.maxBodyBytes,
    userAgent: `admin-api-conformance/${SUITE_VERSION}`,
    tokenFor: credentials(config, run),
    network,
    bodies: new DecodedBodies(),
    stop,
  };
  const origin = originOf(config.baseUrl);
  // Every request waits for its place in the origin's budget, which the targets behind that origin share.
  return {
    send: (request) => () =>
      withinOriginBudget(origin, config.originConcurrency, () => (stop?.aborted ? Promise.resolve(notSent(request, config.baseUrl)) : send(request, options))),
    close: () => network.close(),
  };
}

/**
 * Sends the run's request plan `config.repeat` times, `config.concurrency` requests at a time. The first
 * round is the recording every clause judges; the others only show whether the target answers alike.
 * When `stop` aborts, every request ends at once, as though its timeout had passed, and none is sent after: in
 * repeat mode thousands may be waiting their turn, and each would still take the time of a refused request.
 */
export async function record(config: TargetConfig, stop?: AbortSignal): Promise<{ recording: Recording; rounds: Exchange[][] }> {
  const run = makeRunSecrets();
  const startedAt = new Date().toISOString();
  const plan = requestPlan(config, run);
  const sender = senderOf(config, run, stop);
  const tasks = Array.from({ length: config.repeat }, () => plan.map(sender.send)).flat();
  // The description, when asked for, is fetched once, whatever the number of rounds.
  const described = config.openapiPath === undefined ? [] : [sender.send(descriptionRequest(config.openapiPath!))];
  // So is the product's version, when asked for: through the same transport, within the same bounds.
  const versioned = config.readVersion === undefined ? [] : [sender.send(versionRequest(config.readVersion.path))];
  const answers = await bounded([...tasks, ...described, ...versioned], config.concurrency).finally(() => sender.close());
  const rounds = Array.from({ length: config.repeat }, (_, r) => answers.slice(r * plan.length, (r + 1) * plan.length));
  return { recording: { run, startedAt, exchanges: [...rounds[0], ...answers.slice(tasks.length)] }, rounds };
}
