import type { TargetConfig } from '../config/config.ts';
import type { Exchange, ExchangeRequest } from '../transport/exchange.ts';
import { bounded, senderOf, type Recording } from './recording.ts';

/**
 * Sends `requests` (plan entries of the first recording, those its failed clauses were judged from) `times` more
 * times, one round after the other, as the recording sent them: the same tokens and made-up values, the same bounds,
 * `config.concurrency` at a time within the origin's budget. Each round's answers are in the order of `requests`.
 */
export async function sendAgain(
  config: TargetConfig,
  recording: Recording,
  requests: ExchangeRequest[],
  times: number,
  stop?: AbortSignal,
): Promise<Exchange[][]> {
  if (requests.length === 0 || times === 0) return [];
  const sender = senderOf(config, recording.run, stop);
  const rounds: Exchange[][] = [];
  try {
    for (let i = 0; i < times && !stop?.aborted; i++) rounds.push(await bounded(requests.map(sender.send), config.concurrency));
  } finally {
    await sender.close();
  }
  return rounds;
}
