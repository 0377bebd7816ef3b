import { checkedFile, EXCHANGES } from './bundle.ts';
import { BundleError } from './bundle-error.ts';
import { check, schemaFile } from '../files/checked.ts';
import type { ForbiddenCredential } from '../config/tokens.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { JudgeInput } from '../judging/answers.ts';
import { requestPlan, type RunSecrets } from '../recording/plan.ts';
import { keyOf, type Recording } from '../recording/recording.ts';
import { redactValue, type Redactor, type Secrets } from '../secrets/redact.ts';
import type { RunFacts } from '../judging/verdicts.ts';

// The recording an evidence bundle keeps: every answer of the judged round, with each secret replaced by
// its placeholder wherever it stood. The judge runs on it as it ran on the live answers, with the
// placeholders for secrets, so that re-judging gives the same verdicts ("the secret returned equals the
// one asked for" compares placeholder with placeholder).

/** What a run's judge was given, as it stands in a bundle: secrets as their placeholders, never as values. */
export interface BundleInput extends JudgeInput {
  forbidden: Pick<ForbiddenCredential, 'credential' | 'placeholder' | 'operations'>[];
}

/** The recording of a bundle (exchanges.json): enough to judge every clause again, and nothing secret. */
export interface BundleRecording {
  startedAt: string;
  /** The made-up values of the run: an invalid token no deployment issued and a secret no token has. */
  run: RunSecrets;
  input: BundleInput;
  /** The run's facts as the reports had them (target, deviations, consistency in repeat mode, product). */
  facts: RunFacts;
  exchanges: Exchange[];
  /**
   * The confirmations of its failures (CONFORMANCE_CONFIRM): each round the answers to the requests the failed clauses
   * were judged from, sent again; absent when none was sent. Verifying judges them again as the run did.
   */
  confirmations?: Exchange[][];
}

/** The judge's input of a run, with each secret replaced by its placeholder; taken field by field, never spread from a configuration. */
export function placeholderInput(input: JudgeInput): BundleInput {
  return {
    signupTokens: input.signupTokens.map((_, i) => `$SIGNUP_TOKEN_${i + 1}`),
    forbidden: input.forbidden.map(({ credential, placeholder, operations }) => ({ credential, placeholder, operations })),
    ...(input.openapiPath === undefined ? {} : { openapiPath: input.openapiPath }),
  };
}

/**
 * The configuration a bundle is judged and redacted with: each token is its own placeholder, so the
 * redactor turns the percent-encoded placeholders of the paths back into the placeholders the live run's
 * reports show.
 */
export function placeholderSecrets(input: BundleInput): { adminToken: string; signupTokens: string[]; forbidden: ForbiddenCredential[] } {
  return { adminToken: '$TOKEN', signupTokens: input.signupTokens, forbidden: input.forbidden.map((f) => ({ ...f, token: f.placeholder })) };
}

/** Whether the quote at `at` is escaped: an odd number of backslashes before it, back to `floor`. */
function escapedQuote(text: string, at: number, floor: number): boolean {
  let before = at - 1;
  while (before > floor && text.charCodeAt(before) === 0x5c) before--;
  return (at - 1 - before) % 2 === 1;
}

/**
 * Calls `each` with every JSON string literal of the text that holds a backslash, as [start, end) with its
 * quotes, in order. A scan, not a pattern: a pattern's backtracking runs out of stack on a literal of a few
 * MiB, and a target decides how long its literals are.
 */
function eachLiteralWithEscapes(text: string, each: (start: number, end: number) => void): void {
  let backslash = text.indexOf('\\');
  for (let at = text.indexOf('"'); at !== -1 && backslash !== -1; ) {
    let end = text.indexOf('"', at + 1);
    while (end !== -1 && escapedQuote(text, end, at)) end = text.indexOf('"', end + 1);
    if (end === -1) return;
    if (backslash < at) backslash = text.indexOf('\\', at);
    if (backslash !== -1 && backslash < end) each(at, end + 1);
    at = text.indexOf('"', end + 1);
  }
}

/**
 * A body with every secret replaced, as values: raw and percent-encoded occurrences first (a marker keeps a
 * JSON string valid), then every JSON string that holds an escape is decoded, redacted and, only if it held
 * a secret, written again. Everything else stays byte for byte, so that the judge reads the same document.
 */
export function redactBody(text: string, redact: Redactor): string {
  const raw = redact(text);
  const out: string[] = [];
  let copied = 0;
  eachLiteralWithEscapes(raw, (start, end) => {
    let value: unknown;
    try {
      value = JSON.parse(raw.slice(start, end));
    } catch {
      return;
    }
    const safe = redact(value as string);
    if (safe === value) return;
    out.push(raw.slice(copied, start), JSON.stringify(safe));
    copied = end;
  });
  if (copied === 0) return raw;
  out.push(raw.slice(copied));
  return out.join('');
}

function redactExchange(exchange: Exchange, request: Exchange['request'], baseUrl: string, redact: Redactor, redactedBody: (text: string) => string): Exchange {
  return {
    ...exchange,
    request,
    url: redact(baseUrl) + request.path,
    contentType: exchange.contentType === undefined ? undefined : redact(exchange.contentType),
    versionHeaders: exchange.versionHeaders === undefined ? undefined : redactValue(exchange.versionHeaders, redact),
    location: exchange.location === undefined ? undefined : redact(exchange.location),
    bodyText: exchange.bodyText === undefined ? undefined : redactedBody(exchange.bodyText),
    failure: exchange.failure === undefined ? undefined : redact(exchange.failure),
  };
}

/**
 * The bundle's recording of a live run. Each request is the one the plan makes for the placeholders
 * (a path holds `%24SIGNUP_TOKEN_1` where it held the first secret, percent-encoded as every path
 * parameter is); every other text has each secret replaced by its placeholder.
 */
export function bundleRecording(
  recording: Recording,
  config: JudgeInput & { baseUrl: string },
  secrets: Secrets,
  facts: RunFacts,
  confirmations: Exchange[][] = [],
): BundleRecording {
  const input = placeholderInput(config);
  const live = requestPlan(config, recording.run);
  const stand = requestPlan(input, recording.run);
  const requestOf = new Map(live.map((request, i) => [keyOf(request), stand[i]]));
  // A target that ignores `archived` sends one list three times: each body text is redacted once.
  const bodies = new Map<string, string>();
  const redactedBody = (text: string) => bodies.get(text) ?? bodies.set(text, redactBody(text, secrets.redact)).get(text)!;
  const redacted = (e: Exchange) => {
    const request = requestOf.get(keyOf(e.request)) ?? { ...e.request, path: secrets.redact(e.request.path) };
    return redactExchange(e, request, config.baseUrl, secrets.redact, redactedBody);
  };
  const exchanges = recording.exchanges.map(redacted);
  return {
    startedAt: recording.startedAt,
    run: recording.run,
    input,
    facts,
    ...(confirmations.length > 0 && { confirmations: confirmations.map((round) => round.map(redacted)) }),
    exchanges,
  };
}

/** The confirmations of a bundle's failures, as the judge reads them back; none in a bundle without them. */
export const confirmationsOf = (bundle: BundleRecording): Exchange[][] => bundle.confirmations ?? [];

/** The recording the judge reads back from a bundle. */
export function recordingOf(bundle: BundleRecording): Recording {
  return { run: bundle.run, startedAt: bundle.startedAt, exchanges: bundle.exchanges };
}

/** An exchange as exchanges.json holds it: a body an earlier exchange holds is named, not repeated. */
type StoredExchange = Exchange & { bodySameAs?: number };

/** The exchanges with every body in place: `bodySameAs` must name an earlier exchange that holds its body. */
function withBodies(stored: StoredExchange[]): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const [i, { bodySameAs, ...exchange }] of stored.entries()) {
    if (bodySameAs === undefined) {
      exchanges.push(exchange);
      continue;
    }
    const bodyText = bodySameAs < i ? exchanges[bodySameAs].bodyText : undefined;
    if (bodyText === undefined || exchange.bodyText !== undefined)
      throw new BundleError(
        `exchange ${i} of ${EXCHANGES} in the bundle takes its body from exchange ${bodySameAs}, which is not an earlier exchange with a body of its own`,
      );
    exchanges.push({ ...exchange, bodyText });
  }
  return exchanges;
}

/** A bundle's exchanges.json, checked against its schema. */
export function readBundleRecording(bytes: Buffer): BundleRecording {
  const read = checkedFile<BundleRecording>(EXCHANGES, bytes, schemaFile('bundle-recording.schema.json'));
  const facts = check<RunFacts>(schemaFile('run-facts.schema.json'), read.facts);
  if (!facts.ok) throw new BundleError(`${EXCHANGES} in the bundle does not match its schema: its facts: ${facts.errors.join('; ')}`);
  // A confirmation's answers hold their bodies in place: one naming another's body is no bundle this suite wrote.
  if (read.confirmations?.some((round) => round.some((e) => (e as StoredExchange).bodySameAs !== undefined)))
    throw new BundleError(`a confirmation of ${EXCHANGES} in the bundle takes a body from another exchange; a confirmation's bodies are in place`);
  return { ...read, exchanges: withBodies(read.exchanges) };
}
