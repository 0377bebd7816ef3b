// What a check records. A violation is data: the exchange, the JSON pointer, what was received and the
// requirement it broke, by kind and parameters; an answer that could not be judged is kept apart from it.
// The errors a contract's schema finds are sorted into the clause the contract's `clauses` annotation names
// for each. And a requirement is worded here, once, for every report (the test's message, the page, the
// summary, JUnit, CTRF, the console, a fleet's shared failures).

import type { ErrorObject } from 'ajv';
import type { JsonBody } from '../json/json-readings.ts';
import { own } from '../contracts/fields.ts';
import { isNode, validators, type SchemaName } from '../contracts/validator.ts';
import type { Exchange } from '../transport/exchange.ts';
import { describeReceived, escapePointer, valueAt } from './received.ts';
import { branchFor, clauseFor, clausesOfTree, placeOfSchemaPath, schemaTree, type Aspect, type SchemaPlace } from './schema-tree.ts';
import { walkBody, type BodyWalk } from './schema-walk.ts';

// The outcome of a clause: its violations, and the answers it could not judge.

/** A place in one response where the target does not do what the document says. */
export interface Violation {
  exchange: Exchange;
  /** JSON pointer into the body; empty for the status line or headers. */
  pointer: string;
  received: string;
  /** What the document requires there, as data (requirementText below words it). */
  requirement: Requirement;
}

/** A response the clause needed but could not judge (network error, not JSON, unexpected status): it leaves the clause errored. */
export interface ErroredAnswer {
  exchange: Exchange;
  reason: string;
}

export type Outcome = 'passed' | 'failed' | 'errored' | 'not-exercised';

/** At most this many violations are kept per clause; the rest are counted. */
export const MAX_VIOLATIONS_KEPT = 50;

/** What one clause found across every response it looked at. */
export class ClauseCheck {
  instances = 0;
  readonly violations: Violation[] = [];
  violationsCut = 0;
  readonly erroredAnswers: ErroredAnswer[] = [];
  observations: unknown;
  /** Why the check itself broke, when it did: the clause is errored, never the run. */
  crash?: string;

  constructor(readonly clause: string) {}

  /** Counts things the clause looked at; a clause that looked at nothing was not exercised. */
  count(n = 1): this {
    this.instances += n;
    return this;
  }

  violate(exchange: Exchange, pointer: string, received: string, requirement: Requirement): this {
    if (this.violations.length < MAX_VIOLATIONS_KEPT) this.violations.push({ exchange, pointer, received, requirement });
    else this.violationsCut += 1;
    return this;
  }

  /** True once no further violation would be kept: callers may skip describing one. */
  get isFull(): boolean {
    return this.violations.length >= MAX_VIOLATIONS_KEPT;
  }

  /** Counts a violation that is not kept. */
  cut(): this {
    this.violationsCut += 1;
    return this;
  }

  /** Records an answer the clause needed and could not judge: the clause is errored, unless a violation was found. */
  erroredOn(exchange: Exchange, reason: string): this {
    this.erroredAnswers.push({ exchange, reason });
    return this;
  }

  observe(observations: unknown): this {
    this.observations = observations;
    return this;
  }

  /** Takes over what another check of the same clause found (the schema findings of a contract). */
  absorb(found: ClauseCheck): this {
    this.instances += found.instances;
    for (const v of found.violations) this.violate(v.exchange, v.pointer, v.received, v.requirement);
    this.violationsCut += found.violationsCut;
    this.erroredAnswers.push(...found.erroredAnswers);
    return this;
  }

  crashed(error: unknown): this {
    this.crash = `the check of ${this.clause} broke: ${error instanceof Error ? error.message : String(error)}`;
    return this;
  }

  get violationCount(): number {
    return this.violations.length + this.violationsCut;
  }

  // A violation outweighs an unreadable response: what was read already shows the target is wrong.
  get outcome(): Outcome {
    if (this.crash !== undefined) return 'errored';
    if (this.violationCount > 0) return 'failed';
    if (this.erroredAnswers.length > 0) return 'errored';
    return this.instances > 0 ? 'passed' : 'not-exercised';
  }
}

// The requirement a violation broke, as data, and its words.

/** A schema keyword the contracts use, as the judge names the requirement it stands for. */
export type SchemaKeyword =
  | 'required'
  | 'type'
  | 'integer'
  | 'format'
  | 'enum'
  | 'const'
  | 'minimum'
  | 'maximum'
  | 'minLength'
  | 'minItems'
  | 'discriminator'
  | 'other';

export type Requirement =
  /** An answer's status, for an authentication case. */
  | { kind: 'status'; status: number; hint?: string }
  /** A JSON answer's content-type: application/json, parameters such as charset allowed. */
  | { kind: 'media-type' }
  /** A body that is JSON. */
  | { kind: 'json-body' }
  /** A 200 answer with a projects list (2.4), or, readable, a list with an integer version and a projects array. */
  | { kind: 'projects-answer' }
  | { kind: 'projects-list' }
  /** The error object of 2.7, named as section 7 says: readable, of its shape (a contract's keyword), its name. */
  | { kind: 'error-object'; name: string }
  | { kind: 'error-shape'; keyword: SchemaKeyword; params: Record<string, unknown> }
  | { kind: 'error-name'; name: string }
  /** Section 3: an expired token is not enabled. */
  | { kind: 'expired-not-enabled'; expiresAt: string; requestedAt: string }
  /** Section 4.1: the token returned is the one the path names. */
  | { kind: 'same-secret'; secret: string }
  /** A field of a contract of section 2, by the keyword it breaks. */
  | { kind: 'schema'; keyword: SchemaKeyword; params: Record<string, unknown> };

/** A requirement's kind as a report names it: its kind, and a contract's keyword, as `schema.enum`. */
export const kindOf = (r: Requirement) => ('keyword' in r ? `${r.kind}.${r.keyword}` : r.kind);

const list = (values: unknown) => [values].flat().map((v) => JSON.stringify(v));

/** The one place where a contract's keyword is worded as what the document requires. */
function schemaWords(keyword: SchemaKeyword, params: Record<string, unknown>): string {
  switch (keyword) {
    case 'required':
      return `the field "${String(params.missingProperty)}" to be present`;
    case 'type':
      return `a value of type ${[params.type].flat().join(' or ')}`;
    case 'integer':
      return 'a value of type integer';
    case 'format':
      return 'an RFC 3339 date-time with a time-zone offset (e.g. 2024-05-01T12:00:00Z)';
    case 'enum':
      return `one of ${list(params.allowedValues).join(', ')}`;
    case 'minimum':
      return `a value of at least ${String(params.limit)}`;
    case 'maximum':
      return `a value of at most ${String(params.limit)}`;
    case 'const':
      return `the value ${JSON.stringify(params.allowedValue)}`;
    case 'minLength':
      return `a text of at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'}`;
    case 'minItems':
      return 'at least one owner (the system owner when there is none)';
    case 'discriminator':
      return 'an ownerType of "user", "group" or "system"';
    case 'other':
      return `a value the contract allows (its ${String(params.keyword)} keyword)`;
  }
}

/** What the document requires, in the words every report gives it. */
export function requirementText(r: Requirement): string {
  switch (r.kind) {
    case 'status':
      return `status ${r.status}${r.hint ?? ''}`;
    case 'media-type':
      return 'content-type application/json';
    case 'json-body':
      return 'a JSON body';
    case 'projects-answer':
      return 'a 200 answer with a projects list';
    case 'projects-list':
      return 'a projects list: an integer version and a projects array';
    case 'error-object':
      return `a JSON error object named ${r.name}`;
    case 'error-shape':
      return `the error object of 2.7: ${schemaWords(r.keyword, r.params)}`;
    case 'error-name':
      return JSON.stringify(r.name);
    case 'expired-not-enabled':
      return `false, since expiresAt ${r.expiresAt} lies before the request (${r.requestedAt})`;
    case 'same-secret':
      return `the secret named in the path, ${JSON.stringify(r.secret)}`;
    case 'schema':
      return schemaWords(r.keyword, r.params);
  }
}

const KEYWORDS: readonly string[] = ['required', 'type', 'format', 'enum', 'const', 'minimum', 'maximum', 'minLength', 'minItems', 'discriminator'];
const isKeyword = (keyword: string): keyword is SchemaKeyword => KEYWORDS.includes(keyword);

/** A schema error of ajv's as a requirement: its keyword, and the parameters the words need; one the contracts do not use is named as such. */
export function schemaRequirement(keyword: string, params: Record<string, unknown>): { keyword: SchemaKeyword; params: Record<string, unknown> } {
  return isKeyword(keyword) ? { keyword, params } : { keyword: 'other', params: { keyword } };
}

// A contract's findings, sorted into the clauses it names.

/** A body as the judge reads it, beside the exchange that brought it. */
export interface ReadBody {
  exchange: Exchange;
  body: JsonBody;
}

const ASPECT_OF_KEYWORD: Record<string, Aspect> = {
  required: 'required',
  format: 'format',
  minimum: 'range',
  maximum: 'range',
  minItems: 'minItems',
  discriminator: 'discriminator',
};

// A null where the document allows none is a nullability fault, whichever keyword noticed it (type, enum).
function aspectOf(keyword: string, value: unknown): Aspect {
  return ASPECT_OF_KEYWORD[keyword] ?? (value === null ? 'null' : 'type');
}

function pointerOf(error: ErrorObject): string {
  return error.keyword === 'required' ? `${error.instancePath}/${escapePointer(String(error.params.missingProperty))}` : error.instancePath;
}

interface Finding {
  clause: string;
  pointer: string;
  /** Worded only for a violation that is kept: a list with a hundred thousand broken entries keeps fifty. */
  describe(): { received: string; requirement: Requirement };
}

function findingOf(tree: SchemaPlace, error: ErrorObject, reading: unknown, body: JsonBody): Finding {
  const { place, keyword } = placeOfSchemaPath(tree, error.schemaPath);
  const clause = clauseFor(place, keyword, aspectOf(keyword, valueAt(reading, error.instancePath))) ?? place.clauseOf.type;
  if (clause === undefined) throw new Error(`the contract names no clause for ${error.schemaPath}`);
  const pointer = pointerOf(error);
  return {
    clause,
    pointer,
    describe: () => ({
      received: describeReceived(valueAt(reading, pointer), pointer, body.literals),
      requirement: { kind: 'schema', ...schemaRequirement(error.keyword, error.params) },
    }),
  };
}

/** The place of the contract a pointer into the body leads to, following the body's own union kinds. */
function placeAt(tree: SchemaPlace, data: unknown, pointer: string): SchemaPlace | undefined {
  let [place, node]: [SchemaPlace | undefined, unknown] = [tree, data];
  for (const raw of pointer.split('/').slice(1)) {
    if (place === undefined || node === null || typeof node !== 'object') return undefined;
    if (place.branches.length > 0 && isNode(node)) place = branchFor(place, node);
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    place = Array.isArray(node) ? place?.items : place?.properties.get(key);
    node = own(node, key);
  }
  return place;
}

/**
 * A number the target wrote as a fraction that no double can hold as one (9007199254740993.5) reads as a
 * whole number; the literal decides whether an integer was sent.
 */
function literalFindings(tree: SchemaPlace, body: JsonBody): Finding[] {
  return [...body.literals].flatMap(([pointer, literal]) => {
    const place = literal.integral ? undefined : placeAt(tree, body.value, pointer);
    const clause = place?.integerOnly ? place.valueClauseOf.type : undefined;
    if (clause === undefined) return [];
    return [{ clause, pointer, describe: () => ({ received: literal.text, requirement: { kind: 'schema', keyword: 'integer', params: {} } }) }];
  });
}

const walks = new WeakMap<JsonBody, BodyWalk>();
const found = new WeakMap<JsonBody, Map<SchemaName, Finding[]>>();

/** The walk of a body beside its contract, made once however many clauses ask. */
export function walkOf(name: SchemaName, body: JsonBody): BodyWalk {
  let walk = walks.get(body);
  if (!walk) walks.set(body, (walk = walkBody(schemaTree(name), body.value)));
  return walk;
}

/** Every clause whose errors the contract of this object names. */
export function schemaClauses(name: SchemaName): string[] {
  return [...clausesOfTree(schemaTree(name))];
}

/** A body's findings under one contract, each clause and pointer once, made once for every answer that sent it. */
function findingsOf(name: SchemaName, tree: SchemaPlace, body: JsonBody): Finding[] {
  const byName = found.get(body) ?? new Map<SchemaName, Finding[]>();
  found.set(body, byName);
  let findings = byName.get(name);
  if (findings) return findings;
  const errors = [body.value, ...body.otherReadings].flatMap((reading) =>
    validators()
      .validate(name, reading)
      .map((e) => findingOf(tree, e, reading, body)),
  );
  const reported = new Set<string>();
  findings = [...errors, ...literalFindings(tree, body)].filter((finding) => {
    const key = `${finding.clause} ${finding.pointer}`;
    return !reported.has(key) && reported.add(key);
  });
  byName.set(name, findings);
  return findings;
}

/**
 * Validates each distinct body once (and each other reading of a body with repeated keys) and sorts every error
 * into the clause the contract names for it. One value that fails two keywords (a null mode fails type
 * and enum) is one violation.
 */
export function schemaFindings(name: SchemaName, bodies: ReadBody[]): Map<string, ClauseCheck> {
  const tree = schemaTree(name);
  const checks = new Map(schemaClauses(name).map((id) => [id, new ClauseCheck(id)]));
  for (const { exchange, body } of bodies) {
    for (const [clause, n] of walkOf(name, body).looked) checks.get(clause)?.count(n);
    for (const finding of findingsOf(name, tree, body)) {
      const check = checks.get(finding.clause);
      if (check === undefined) throw new Error(`the contract of ${name} names ${finding.clause}, which it does not list`);
      if (check.isFull) check.cut();
      else {
        const { received, requirement } = finding.describe();
        check.violate(exchange, finding.pointer, received, requirement);
      }
    }
  }
  return checks;
}
