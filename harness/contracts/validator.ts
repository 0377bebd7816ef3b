import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { loadSchemas, type JsonSchema } from './contracts.ts';
import { isRfc3339DateTime } from './rfc3339.ts';

/** One schema per object of section 2, named after its file in contracts/. */
export type SchemaName = 'public-signup-token' | 'user' | 'role' | 'projects' | 'project' | 'owner' | 'error';

/**
 * The annotation keyword by which a contract names the clause each kind of schema error breaks:
 * `{ "required": "<clause id>", "type": ..., "null": ..., "format": ..., "range": ..., "minItems": ..., "discriminator": ... }`.
 * It only annotates; registered so that Ajv's strict mode accepts it.
 */
export const CLAUSES_KEYWORD = 'clauses';

export interface Validators {
  /** Every violation of the document's schema, all errors collected. */
  validate(name: SchemaName, data: unknown): ErrorObject[];
  /** The schema as compiled: references written out in place. */
  schema(name: SchemaName): Node;
}

export type Node = Record<string, unknown>;

/** Whether a value parsed from JSON or YAML is an object with keys (not null, not a list). */
export const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The contracts refer to each other by `$ref` and none refers to itself, so each can be compiled with its
 * references written out in place. Ajv gathers the errors of a referenced schema by copying the list it
 * has so far, which grows quadratically with the errors of a large list; inlined, it stays linear.
 */
export function inlineRefs(node: unknown, byFile: Map<string, JsonSchema>): unknown {
  if (Array.isArray(node)) return node.map((n) => inlineRefs(n, byFile));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as Node).$ref;
  if (typeof ref === 'string') {
    const { $id: _id, $schema: _schema, ...target } = (byFile.get(ref) ?? {}) as Node;
    if (!_id) throw new Error(`contract reference ${ref} names no schema in contracts/`);
    return inlineRefs(target, byFile);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inlineRefs(v, byFile)]));
}

// One date-time check for every date-time field.
const FORMATS = { 'date-time': { type: 'string', validate: isRfc3339DateTime } };

let ajv: Ajv | undefined;

/** Ajv, loaded and set up only when a contract has to be compiled. */
function ajvInstance(): Ajv {
  if (ajv) return ajv;
  const { Ajv2020 } = require('ajv/dist/2020.js');
  ajv = new Ajv2020({
    allErrors: true,
    discriminator: true,
    strict: true,
    strictRequired: false, // the owner union requires ownerType beside its discriminator
    formats: FORMATS,
  }) as Ajv;
  ajv.addKeyword({ keyword: CLAUSES_KEYWORD, schemaType: 'object' });
  return ajv;
}

function compileAll(schemas: Map<string, JsonSchema>): Validators {
  const inlined = new Map<SchemaName, Node>();
  const compiled = new Map<SchemaName, ValidateFunction>();
  const schema = (name: SchemaName): Node => {
    let node = inlined.get(name);
    if (!node) {
      const file = schemas.get(`${name}.schema.json`);
      if (!file) throw new Error(`contracts/ has no ${name}.schema.json`);
      inlined.set(name, (node = inlineRefs(file, schemas) as Node));
    }
    return node;
  };
  const get = (name: SchemaName): ValidateFunction => {
    let fn = compiled.get(name);
    if (!fn) {
      fn = ajvInstance().compile(schema(name));
      compiled.set(name, fn);
    }
    return fn;
  };
  return { validate: (name, data) => (get(name)(data) ? [] : [...(get(name).errors ?? [])]), schema };
}

let shared: Validators | undefined;

/** Schemas are compiled once per process and shared by every check in it. */
export function validators(): Validators {
  return (shared ??= compileAll(loadSchemas()));
}
