import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { loadSchemas, type JsonSchema } from './contracts.ts';
import { isRfc3339DateTime } from './rfc3339.ts';

/** One schema per object of section 2, named after its file in contracts/. */
export type SchemaName = 'public-signup-token' | 'user' | 'role' | 'projects' | 'project' | 'owner' | 'error';

export interface Validators {
  /** Every violation of the document's schema, all errors collected. */
  validate(name: SchemaName, data: unknown): ErrorObject[];
}

type Node = Record<string, unknown>;

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

function createAjv(): Ajv2020 {
  return new Ajv2020({
    allErrors: true,
    discriminator: true,
    strict: true,
    strictRequired: false, // the owner union requires ownerType beside its discriminator
    formats: { 'date-time': { type: 'string', validate: isRfc3339DateTime } },
  });
}

function compileAll(schemas: Map<string, JsonSchema>): Validators {
  const ajv = createAjv();
  const compiled = new Map<SchemaName, ValidateFunction>();
  const get = (name: SchemaName): ValidateFunction => {
    let fn = compiled.get(name);
    if (!fn) compiled.set(name, (fn = ajv.compile(inlineRefs(schemas.get(`${name}.schema.json`), schemas) as object)));
    return fn;
  };
  return { validate: (name, data) => (get(name)(data) ? [] : [...(get(name).errors ?? [])]) };
}

let shared: Validators | undefined;

/** Schemas are compiled once per process and shared by every check in it. */
export function validators(): Validators {
  return (shared ??= compileAll(loadSchemas()));
}
