import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { loadSchemas, type JsonSchema } from './contracts.ts';
import { isRfc3339DateTime } from './rfc3339.ts';

/** One schema per object of section 2, named after its file in contracts/. */
export type SchemaName = 'public-signup-token' | 'user' | 'role' | 'projects' | 'project' | 'owner' | 'error';

export interface Validators {
  /** Every violation of the document's schema, all errors collected. */
  validate(name: SchemaName, data: unknown): ErrorObject[];
  /** Fields the document does not define, and deprecated ones, found in otherwise readable data. */
  observe(name: SchemaName, data: unknown): ErrorObject[];
}

const OBSERVE_PREFIX = 'observe/';

// The observer variant of a schema closes every object (additionalProperties: false) and turns each
// deprecated property into `false`, so Ajv reports exactly the unknown and the deprecated fields.
function observerVariant(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(observerVariant);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties') {
      const props = Object.entries(value as Record<string, { deprecated?: boolean }>);
      out.properties = Object.fromEntries(props.map(([p, s]) => [p, s.deprecated ? false : observerVariant(s)]));
      out.additionalProperties = false;
    } else out[key] = observerVariant(value);
  }
  return out;
}

function observerId(id: string): string {
  return id.replace(/\/contracts\//, `/contracts/${OBSERVE_PREFIX}`);
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
  for (const schema of schemas.values()) {
    ajv.addSchema(schema);
    ajv.addSchema({ ...(observerVariant(schema) as JsonSchema), $id: observerId(schema.$id) });
  }
  const compiled = new Map<string, ValidateFunction>();
  const get = (id: string): ValidateFunction => {
    let fn = compiled.get(id);
    if (!fn) compiled.set(id, (fn = ajv.getSchema(id) as ValidateFunction));
    return fn;
  };
  const idOf = (name: SchemaName) => schemas.get(`${name}.schema.json`)!.$id;
  const run = (fn: ValidateFunction, data: unknown) => (fn(data) ? [] : [...(fn.errors ?? [])]);
  return {
    validate: (name, data) => run(get(idOf(name)), data),
    observe: (name, data) => run(get(observerId(idOf(name))), data),
  };
}

let shared: Validators | undefined;

/** Schemas are compiled once per process and shared by every check in it. */
export function validators(): Validators {
  return (shared ??= compileAll(loadSchemas()));
}
