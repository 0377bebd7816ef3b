import { isJsonMediaType, type Exchange } from '../transport/exchange.ts';
import { field } from '../contracts/fields.ts';
import { readJsonBody } from '../json/json-body.ts';
import { keyOf } from '../recording/recording.ts';
import { schemaFindings } from './violations.ts';

/** What one answer amounts to for the clauses: status, media type, and which schema clauses it breaks. */
export function answerSignature(exchange: Exchange): string {
  if (exchange.failure !== undefined) return 'no answer';
  const media = isJsonMediaType(exchange.contentType) ? 'json' : (exchange.contentType ?? 'none').split(';')[0];
  const read = exchange.bodyText === undefined ? undefined : readJsonBody(exchange.bodyText);
  if (exchange.status !== 200 || !read?.ok) {
    const name = read?.ok ? field(read.body.value, 'name') : undefined;
    return `${exchange.status} ${media}${typeof name === 'string' ? ` ${name}` : ''}`;
  }
  const contract = exchange.request.path.includes('/invite-link/tokens/') ? 'public-signup-token' : 'projects';
  const broken = [...schemaFindings(contract, [{ exchange, body: read.body }])].filter(([, c]) => c.violationCount > 0).map(([id]) => id);
  const enabled = field(read.body.value, 'enabled');
  return `${exchange.status} ${media} breaks [${broken.join(', ')}]${enabled === undefined ? '' : ` enabled=${JSON.stringify(enabled)}`}`;
}

export interface Percentiles {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  // Nearest-rank percentiles: every reported figure is a latency that was measured.
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return { count: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted.at(-1) ?? 0 };
}

export interface Consistency {
  rounds: number;
  concurrency: number;
  consistent: boolean;
  /** Requests whose answers differed between rounds, with how often each kind of answer came. */
  inconsistent: { method: string; path: string; credential: string; answers: Record<string, number> }[];
  latencyMs: Record<string, Percentiles>;
}

const operationOf = (e: Exchange) => (e.request.path.includes('/invite-link/tokens/') ? 'signup-token' : 'projects');

/** Whether every round of the plan was answered alike, and how fast each operation answered. */
export function consistencyOf(rounds: Exchange[][], concurrency: number, redact: (text: string) => string): Consistency {
  const byRequest = new Map<string, Exchange[]>();
  for (const e of rounds.flat()) byRequest.set(keyOf(e.request), [...(byRequest.get(keyOf(e.request)) ?? []), e]);
  const inconsistent = [...byRequest.values()].flatMap((answers) => {
    const counts: Record<string, number> = {};
    for (const a of answers) counts[answerSignature(a)] = (counts[answerSignature(a)] ?? 0) + 1;
    const { method, path, credential } = answers[0].request;
    return Object.keys(counts).length > 1 ? [{ method, path: redact(path), credential, answers: counts }] : [];
  });
  const timed = rounds.flat().filter((e) => e.failure === undefined);
  const latencyMs = Object.fromEntries(
    ['signup-token', 'projects'].map((op) => [op, percentiles(timed.filter((e) => operationOf(e) === op).map((e) => e.durationMs))]),
  );
  return { rounds: rounds.length, concurrency, consistent: inconsistent.length === 0, inconsistent, latencyMs };
}
