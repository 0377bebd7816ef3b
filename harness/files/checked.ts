import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { SAYS_KEYWORD, schemaWords } from './schema-words.ts';
import { closest } from './closest.ts';

// Whatever the suite reads from a file or an attachment is checked against a schema where it is read,
// never cast to a type: a misspelt key or a wrong type is named, and no value is quoted (it may be a secret).

let ajv: Ajv | undefined;

/**
 * Ajv, loaded when the first schema is compiled. verbose: an error carries the value, so that an empty one can
 * be told apart; the value is never printed. The suite's own schemas are checked by its self-tests: not
 * validating them against the meta-schema here saves tens of milliseconds a run.
 */
function ajvInstance(): Ajv {
  if (ajv) return ajv;
  const { Ajv2020 } = require('ajv/dist/2020.js');
  const addFormats: (a: Ajv) => void = require('ajv-formats').default;
  ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, validateSchema: false }) as Ajv;
  addFormats(ajv);
  ajv.addKeyword({ keyword: SAYS_KEYWORD, schemaType: 'string' });
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();

/** The validator of a schema file, or of one of its $defs (`file#/$defs/name`). */
function validatorOf(schemaFile: URL): ValidateFunction {
  let validate = compiled.get(schemaFile.href);
  if (validate) return validate;
  const file = new URL(schemaFile.href.replace(/#.*$/, ''));
  const schema = JSON.parse(readFileSync(file, 'utf8'));
  const ajv = ajvInstance();
  if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema);
  validate = ajv.getSchema(`${schema.$id}${schemaFile.hash}`);
  if (!validate) throw new Error(`${schemaFile.href} names no schema`);
  compiled.set(schemaFile.href, validate);
  return validate;
}

/**
 * A key the schema does not know, quoted only as a misspelling of one it does: anything else may be a secret
 * written where a key goes (a token on a line of its own with a colon after it).
 */
function unknownKey(at: string, key: string, parentSchema: unknown, keysNamed: boolean): string {
  const properties = Object.keys((parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {});
  const meant = closest(key, properties);
  if (meant !== undefined) return `${at} has an unknown key "${key}"; did you mean "${meant}"?`;
  if (keysNamed) return `${at} has an unknown key "${key}"; known keys: ${properties.join(', ')}`;
  return `${at} has a key it does not know (not shown, as it may be a secret)`;
}

/** How a file's errors are told: `keysNamed` for a file that holds no secret (a deviations file), whose unknown keys are quoted. */
export interface CheckOptions {
  keysNamed?: boolean;
}

/** One error in words, without the value: where, and what the schema wanted. */
export function describeSchemaError(error: ErrorObject, options: CheckOptions = {}): string {
  const at = error.instancePath === '' ? 'the top level' : error.instancePath.slice(1).replace(/\//g, '.');
  if (error.keyword === 'additionalProperties') return unknownKey(at, String(error.params.additionalProperty), error.parentSchema, options.keysNamed === true);
  if (error.keyword === 'required') return `${at} lacks "${error.params.missingProperty}"`;
  if (error.keyword === 'type' && error.data === null) return `${at} is empty`;
  if (error.keyword === 'type') return `${at} must be ${error.params.type === 'string' ? 'a string (quote it in YAML)' : `of type ${error.params.type}`}`;
  return `${at} ${schemaWords(error) ?? error.message}`;
}

/**
 * The errors that say the most: a oneOf failing is explained by its branches' errors, and of those the
 * deepest (a blank item of a list says more than "not a string").
 */
function telling(errors: ErrorObject[]): ErrorObject[] {
  // propertyNames only says a key's name failed: the error of the name's own schema says how.
  const specific = errors.filter((e) => !['oneOf', 'anyOf', 'propertyNames'].includes(e.keyword));
  return specific.filter((e) => !specific.some((o) => o.instancePath.startsWith(`${e.instancePath}/`)));
}

/** The value, typed, once it conforms to the schema; otherwise the errors in words (at most three). */
export function check<T>(schemaFile: URL, value: unknown, options: CheckOptions = {}): { ok: true; value: T } | { ok: false; errors: string[] } {
  const validate = validatorOf(schemaFile);
  if (validate(value)) return { ok: true, value: value as T };
  const errors = [...new Set(telling(validate.errors ?? []).map((e) => describeSchemaError(e, options)))];
  return { ok: false, errors: errors.slice(0, 3) };
}

/** A schema of harness/files/schemas/ by file name. */
export const schemaFile = (name: string) => pathToFileURL(path.join(__dirname, 'schemas', name));
