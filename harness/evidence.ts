import type { Exchange } from './exchange.ts';
import type { Redactor } from './redact.ts';
import type { ClauseCheck } from './verdict.ts';

/** Bodies in evidence are cut to this many characters. */
export const BODY_EXCERPT_CHARS = 2000;

const CREDENTIAL_HEADER: Record<string, string | undefined> = {
  admin: '$TOKEN',
  forbidden: '$FORBIDDEN_TOKEN',
  none: undefined,
};

function shellQuote(text: string): string {
  return `"${text.replace(/["\\`]/g, '\\$&')}"`;
}

/** A curl line that repeats the request, secrets left as shell variables. */
export function curlLine(exchange: Exchange, redact: Redactor): string {
  const credential = exchange.request.credential;
  const header = credential === 'invalid' ? 'an-invalid-token' : CREDENTIAL_HEADER[credential];
  const auth = header === undefined ? '' : ` -H ${shellQuote(`authorization: ${header}`)}`;
  return `curl -sS -i${auth} ${shellQuote(redact(exchange.url))}`;
}

export function excerpt(text: string | undefined, redact: Redactor): string | undefined {
  if (text === undefined) return undefined;
  // Redact before cutting, so that a secret across the cut cannot leave a readable part behind.
  const safe = redact(text);
  return safe.length > BODY_EXCERPT_CHARS ? `${safe.slice(0, BODY_EXCERPT_CHARS)}… (${safe.length} characters in all)` : safe;
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

export function exchangeEvidence(exchange: Exchange, redact: Redactor): ExchangeEvidence {
  return {
    method: exchange.request.method,
    path: redact(exchange.request.path),
    credential: exchange.request.credential,
    status: exchange.status,
    contentType: exchange.contentType,
    durationMs: exchange.durationMs,
    bodyExcerpt: excerpt(exchange.bodyText, redact),
    curl: curlLine(exchange, redact),
  };
}

/** The evidence of one clause, as attached to its test and copied into conformance.json. */
export function clauseEvidence(check: ClauseCheck, redact: Redactor) {
  return {
    clause: check.clause,
    outcome: check.outcome,
    instances: check.instances,
    violations: check.violations.map((v) => ({
      pointer: v.pointer,
      received: redact(v.received),
      required: v.required,
      request: exchangeEvidence(v.exchange, redact),
    })),
    violationsCut: check.violationsCut,
    unevaluable: check.unevaluable.map((u) => ({ reason: redact(u.reason), request: exchangeEvidence(u.exchange, redact) })),
    observations: check.observations === undefined ? undefined : JSON.parse(redact(JSON.stringify(check.observations))),
  };
}

export type ClauseEvidence = ReturnType<typeof clauseEvidence>;
