import type { ForbiddenCredential, Operation } from '../config/tokens.ts';
import type { Credential, Exchange } from '../transport/exchange.ts';
import { readJsonBody } from '../json/json-body.ts';
import type { JsonBody } from '../json/json-readings.ts';
import { PROJECTS_PATH, authPath, tokenPath } from '../recording/plan.ts';
import { keyOf, type Recording } from '../recording/recording.ts';
import { schemaFindings, type ClauseCheck, type ReadBody } from './violations.ts';

/** What the judge knows of the target besides its answers: what it was asked with. */
export interface JudgeInput {
  signupTokens: string[];
  forbidden: Pick<ForbiddenCredential, 'credential' | 'placeholder' | 'operations'>[];
  /** Where the target publishes its own OpenAPI description, when the run was asked to fetch it. */
  openapiPath?: string;
}

/** A body read as JSON, or why not; `errored` when no verdict can rest on it (too deep to judge). */
export type JsonRead = { ok: true; body: JsonBody } | { ok: false; reason: string; errored: boolean };

/** Whether an authorised request produced a 200 JSON body that the data clauses can judge. */
export type Readable = { ok: true; body: JsonBody } | { ok: false; reason: string };

/**
 * A 304 (RFC 9110, 15.4.5) answers a conditional request, and the suite sends none: no answer to judge,
 * and no redirect either. Something between the suite and the target, a cache most likely, answered.
 */
export const NOT_MODIFIED_REASON =
  'answered 304 Not Modified, which only answers a conditional request, and the suite sends none (no If-None-Match, no If-Modified-Since): a cache between the suite and the target may be answering for it';

function statusReason(exchange: Exchange): string {
  const status = exchange.status!;
  if (status === 304) return NOT_MODIFIED_REASON;
  if (status >= 300 && status < 400 && exchange.location === undefined)
    return `answered ${status}, a redirect without a Location header; the suite never follows redirects`;
  if (status >= 300 && status < 400) return `answered ${status}, a redirect to ${exchange.location}; the suite never follows redirects`;
  if (status === 401 || status === 403) return `answered ${status} to the admin token: check that CONFORMANCE_ADMIN_TOKEN may call this operation`;
  if (status === 404 && exchange.request.path.includes('/invite-link/tokens/'))
    return 'answered 404: the target does not know this signup token; check CONFORMANCE_SIGNUP_TOKENS';
  return `answered ${status} where the document gives 200`;
}

/** The target as it answered one run's requests, each body read once, each contract applied once. */
export class Answers {
  private readonly byKey: Map<string, Exchange>;
  // By body text: a target that ignores `archived` sends one list three times, and each is read once.
  // (V8 hashes a long string by its length, and compares equal lengths by content: no second parse.)
  private readonly reads = new Map<string, JsonRead>();
  private readonly findings = new Map<string, Map<string, ClauseCheck>>();
  /** The requests whose answers were asked for, by key: what a clause judged alone was judged from (confirmation.ts). */
  readonly asked = new Set<string>();

  constructor(
    private readonly recording: Recording,
    readonly input: JudgeInput,
  ) {
    this.byKey = new Map(recording.exchanges.map((e) => [keyOf(e.request), e]));
  }

  get unknownSecret(): string {
    return this.recording.run.unknownSecret;
  }

  get(path: string, credential: Credential): Exchange {
    const key = keyOf({ path, credential });
    this.asked.add(key);
    const exchange = this.byKey.get(key);
    if (!exchange) throw new Error(`the request plan has no ${credential} request to ${path}`);
    return exchange;
  }

  token(secret: string): Exchange {
    return this.get(tokenPath(secret), 'admin');
  }

  /** The request of an operation's authentication checks, made as `credential`. */
  auth(operation: Operation, credential: Credential): Exchange {
    return this.get(authPath(operation, this.input.signupTokens, this.recording.run), credential);
  }

  projects(query = ''): Exchange {
    return this.get(PROJECTS_PATH + query, 'admin');
  }

  /** The answers to each configured signup-token secret, in the configured order. */
  get signupTokens(): { secret: string; exchange: Exchange }[] {
    return this.input.signupTokens.map((secret) => ({ secret, exchange: this.token(secret) }));
  }

  /** Each forbidden credential that an operation must refuse, with its answer. */
  forbidden(operation: Operation): { placeholder: string; exchange: Exchange }[] {
    return this.input.forbidden
      .filter((f) => f.operations.includes(operation))
      .map((f) => ({ placeholder: f.placeholder, exchange: this.auth(operation, f.credential) }));
  }

  /** The body as JSON, read once however many clauses and answers ask. */
  json(exchange: Exchange): JsonRead {
    if (exchange.bodyError !== undefined) return { ok: false, reason: exchange.bodyError, errored: false };
    const text = exchange.bodyText ?? '';
    let read = this.reads.get(text);
    if (!read) this.reads.set(text, (read = readOnce(text)));
    return read;
  }

  readable(exchange: Exchange): Readable {
    if (exchange.failure !== undefined) return { ok: false, reason: exchange.failure };
    if (exchange.status !== 200) return { ok: false, reason: statusReason(exchange) };
    return this.json(exchange);
  }

  /**
   * The schema clauses of a contract over the bodies that could be read. A required answer that could not
   * be read leaves each of them errored; an optional one (an archived list) only adds what it holds.
   */
  schema(name: 'public-signup-token' | 'projects'): Map<string, ClauseCheck> {
    // Asked for every time, though judged once: each clause judged from the contract was judged from these answers.
    const required = name === 'projects' ? [this.projects()] : this.signupTokens.map((t) => t.exchange);
    const optional = name === 'projects' ? [this.projects('?archived=true'), this.projects('?archived=false')] : [];
    let checks = this.findings.get(name);
    if (checks) return checks;
    const bodies: ReadBody[] = [];
    for (const exchange of [...required, ...optional]) {
      const readable = this.readable(exchange);
      if (readable.ok) bodies.push({ exchange, body: readable.body });
    }
    checks = schemaFindings(name, bodies);
    for (const exchange of required) {
      const readable = this.readable(exchange);
      if (!readable.ok) for (const check of checks.values()) check.erroredOn(exchange, readable.reason);
    }
    this.findings.set(name, checks);
    return checks;
  }

  /** The bodies of these answers that could be read, marking each one that could not on the check. */
  readBodies(check: ClauseCheck, exchanges: Exchange[]): ReadBody[] {
    return exchanges.flatMap((exchange) => {
      const readable = this.readable(exchange);
      if (readable.ok) return [{ exchange, body: readable.body }];
      check.erroredOn(exchange, readable.reason);
      return [];
    });
  }
}

function readOnce(text: string): JsonRead {
  const read = readJsonBody(text);
  if (read.ok) return read;
  // Valid JSON too deep to carry through the run: no verdict on it rather than a crash.
  return { ok: false, reason: read.reason, errored: read.kind === 'depth' };
}
