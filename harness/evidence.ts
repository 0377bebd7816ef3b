import type { Exchange } from './exchange.ts';
import { redactValue, type Secrets } from './redact.ts';
import type { ClauseCheck } from './verdict.ts';

/** Bodies in evidence are cut to this many characters; received values to RECEIVED_CHARS. */
export const BODY_EXCERPT_CHARS = 2000;
export const RECEIVED_CHARS = 200;

function shellQuote(text: string): string {
  return `"${text.replace(/["\\`$]/g, '\\$&')}"`;
}

/** A curl line that repeats the request, secrets left as shell variables. */
export function curlLine(exchange: Exchange, secrets: Secrets): string {
  const { credential } = exchange.request;
  const header = credential === 'invalid' ? 'an-invalid-token' : credential === 'none' ? undefined : secrets.placeholderOf(credential);
  // The placeholder is a shell variable: double quotes let the shell expand it.
  const auth = header === undefined ? '' : ` -H "authorization: ${header}"`;
  return `curl -sS -i${auth} ${shellQuote(secrets.redact(exchange.url))}`;
}

/** Redacts first, then cuts: a secret across the cut cannot leave a readable part behind. */
export function cut(text: string, secrets: Secrets, chars: number): string {
  const safe = secrets.redact(text);
  return safe.length > chars ? `${safe.slice(0, chars)}… (${safe.length} characters in all)` : safe;
}

export interface ExchangeEvidence {
  method: string;
  path: string;
  credential: string;
  status?: number;
  contentType?: string;
  durationMs: number;
  bodyExcerpt?: string;
  curl: string;
}

export function exchangeEvidence(exchange: Exchange, secrets: Secrets): ExchangeEvidence {
  return {
    method: exchange.request.method,
    path: secrets.redact(exchange.request.path),
    credential: exchange.request.credential,
    status: exchange.status,
    contentType: exchange.contentType === undefined ? undefined : cut(exchange.contentType, secrets, RECEIVED_CHARS),
    durationMs: exchange.durationMs,
    bodyExcerpt: exchange.bodyText === undefined ? undefined : cut(exchange.bodyText.slice(0, 64 * 1024), secrets, BODY_EXCERPT_CHARS),
    curl: curlLine(exchange, secrets),
  };
}

/** The evidence of one clause, with every secret replaced: attached to its test and copied into conformance.json. */
export function clauseEvidence(check: ClauseCheck, secrets: Secrets) {
  return {
    clause: check.clause,
    outcome: check.outcome,
    instances: check.instances,
    violations: check.violations.map((v) => ({
      pointer: secrets.redact(v.pointer),
      received: cut(v.received, secrets, RECEIVED_CHARS),
      required: secrets.redact(v.required),
      request: exchangeEvidence(v.exchange, secrets),
    })),
    violationsCut: check.violationsCut,
    unevaluable: check.unevaluable.map((u) => ({ reason: cut(u.reason, secrets, 1000), request: exchangeEvidence(u.exchange, secrets) })),
    observations: check.observations === undefined ? undefined : redactValue(check.observations, secrets.redact),
  };
}

export type ClauseEvidence = ReturnType<typeof clauseEvidence>;
