// What the document requires where a target fails it, as data: a violation carries its requirement's kind and
// parameters, and this module words it, once, for every report (the test's message, the page, the summary,
// JUnit, CTRF, the console, a fleet's shared failures).

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
