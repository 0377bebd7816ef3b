import type { Exchange } from '../transport/exchange.ts';
import { redactValue, type Secrets } from '../secrets/redact.ts';
import type { ClauseCheck } from './verdict.ts';
import { kindOf, requirementText } from './requirement.ts';
import { visible, type Layout } from '../files/visible.ts';

/** Bodies in evidence are cut to this many characters; received values to RECEIVED_CHARS. */
export const BODY_EXCERPT_CHARS = 2000;
export const RECEIVED_CHARS = 200;

function shellQuote(text: string): string {
  return `"${text.replace(/["\\`$]/g, '\\$&')}"`;
}

// The markers that stand for secrets, as redact.ts writes them: in a curl line, shell variables.
const MARKER = /\\\$(TOKEN|FORBIDDEN_TOKEN(?:_[A-Z0-9]+)*|SIGNUP_TOKEN_[0-9]+)(?![A-Za-z0-9_])/g;

/** A URL in double quotes for the shell: everything as written, but each secret's marker a variable the shell expands. */
const shellUrl = (url: string) => shellQuote(url).replace(MARKER, '$${$1}');

/** A curl line that repeats the request, secrets left as shell variables. */
export function curlLine(exchange: Exchange, secrets: Secrets): string {
  const { credential } = exchange.request;
  const header = credential === 'invalid' ? 'an-invalid-token' : credential === 'none' ? undefined : secrets.placeholderOf(credential);
  // The placeholder is a shell variable: double quotes let the shell expand it.
  const auth = header === undefined ? '' : ` -H "authorization: ${header}"`;
  return `curl -sS -i${auth} ${shellUrl(secrets.redact(exchange.url))}`;
}

/** A text of the target's as evidence shows it: hidden characters escaped (so that no escape can spell a secret after redaction), then every secret replaced. */
export function shown(text: string, secrets: Secrets, layout: Layout = 'line'): string {
  return secrets.redact(visible(text, layout));
}

// A cut that would split a marker or an escape ends before it.
const OPEN_AT_CUT = /(?:\$[A-Z0-9_]*|\\(?:u\{?[0-9a-f]{0,5})?)$/;

/** Redacts first, then cuts: a secret across the cut cannot leave a readable part behind. */
export function cut(text: string, secrets: Secrets, chars: number, layout: Layout = 'line'): string {
  const safe = shown(text, secrets, layout);
  if (safe.length <= chars) return safe;
  const head = safe.slice(0, chars);
  const open = /[A-Za-z0-9_{}]/.test(safe[chars]) ? (OPEN_AT_CUT.exec(head)?.[0].length ?? 0) : 0;
  return `${head.slice(0, chars - open)}… (${safe.length} characters in all)`;
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

/** How much of a body is redacted before its excerpt is cut; a secret across this edge is caught by the redactor's edge rule. */
const BODY_REDACTED_CHARS = 64 * 1024;

// One exchange is quoted by many violations: its evidence is made once per set of secrets.
const madeFor = new WeakMap<Secrets, WeakMap<Exchange, ExchangeEvidence>>();

export function exchangeEvidence(exchange: Exchange, secrets: Secrets): ExchangeEvidence {
  let made = madeFor.get(secrets);
  if (!made) madeFor.set(secrets, (made = new WeakMap()));
  let evidence = made.get(exchange);
  if (!evidence) made.set(exchange, (evidence = makeExchangeEvidence(exchange, secrets)));
  return evidence;
}

function makeExchangeEvidence(exchange: Exchange, secrets: Secrets): ExchangeEvidence {
  return {
    method: exchange.request.method,
    path: shown(exchange.request.path, secrets),
    credential: exchange.request.credential,
    status: exchange.status,
    contentType: exchange.contentType === undefined ? undefined : cut(exchange.contentType, secrets, RECEIVED_CHARS),
    durationMs: exchange.durationMs,
    bodyExcerpt: exchange.bodyText === undefined ? undefined : cut(exchange.bodyText.slice(0, BODY_REDACTED_CHARS), secrets, BODY_EXCERPT_CHARS, 'block'),
    curl: curlLine(exchange, secrets),
  };
}

/** One violation as the report gives it: what the document requires in words, and its kind (absent in reports made before kinds were kept). */
export interface ViolationEvidence {
  pointer: string;
  received: string;
  required: string;
  kind?: string;
  request: ExchangeEvidence;
}

/** The evidence of one clause, with every secret replaced: attached to its test and copied into conformance.json. */
export function clauseEvidence(check: ClauseCheck, secrets: Secrets) {
  return {
    clause: check.clause,
    outcome: check.outcome,
    instances: check.instances,
    violations: check.violations.map(
      (v): ViolationEvidence => ({
        pointer: shown(v.pointer, secrets),
        received: cut(v.received, secrets, RECEIVED_CHARS),
        required: shown(requirementText(v.requirement), secrets),
        kind: kindOf(v.requirement),
        request: exchangeEvidence(v.exchange, secrets),
      }),
    ),
    violationsCut: check.violationsCut,
    unevaluable: check.unevaluable.map((u) => ({ reason: cut(u.reason, secrets, 1000), request: exchangeEvidence(u.exchange, secrets) })),
    observations: check.observations === undefined ? undefined : redactValue(check.observations, (text) => shown(text, secrets)),
  };
}

export type ClauseEvidence = ReturnType<typeof clauseEvidence>;
