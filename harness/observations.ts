import { loadSchemas } from './contracts.ts';
import type { SchemaName } from './validator.ts';
import { inlineRefs } from './validator.ts';

export interface FieldUse {
  // JSON pointer with array positions folded to "*", e.g. "/projects/*/owners/*/avatar".
  field: string;
  /** How many times it appeared across the bodies read. */
  count: number;
}

export interface FieldObservations {
  unknown: FieldUse[];
  deprecated: FieldUse[];
}

type Schema = { properties?: Record<string, Schema>; items?: Schema; oneOf?: Schema[]; deprecated?: boolean; const?: unknown };

let inlined: Map<string, Schema> | undefined;

function schemaOf(name: SchemaName): Schema {
  if (!inlined) {
    const files = loadSchemas();
    inlined = new Map([...files].map(([file, schema]) => [file, inlineRefs(schema, files) as Schema]));
  }
  return inlined.get(`${name}.schema.json`)!;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

// The branch of a union (the owner kinds) whose constant properties the data carries.
function branchFor(schema: Schema, data: Record<string, unknown>): Schema {
  if (!schema.oneOf) return schema;
  const branch = schema.oneOf.find((b) => Object.entries(b.properties ?? {}).every(([k, s]) => s.const === undefined || data[k] === s.const));
  return branch ?? { properties: {} };
}

function tally(map: Map<string, number>, field: string): void {
  map.set(field, (map.get(field) ?? 0) + 1);
}

/** Walks data beside its schema once, noting keys the document does not define and deprecated ones. */
function walk(schema: Schema, data: unknown, at: string, seen: FieldObservations & { maps: [Map<string, number>, Map<string, number>] }): void {
  if (Array.isArray(data) && schema.items) {
    for (const item of data) walk(schema.items, item, `${at}/*`, seen);
    return;
  }
  if (!isObject(data)) return;
  const shape = branchFor(schema, data);
  if (!shape.properties) return;
  for (const [key, value] of Object.entries(data)) {
    const field = shape.properties[key];
    if (field === undefined) tally(seen.maps[0], `${at}/${key}`);
    else {
      if (field.deprecated) tally(seen.maps[1], `${at}/${key}`);
      walk(field, value, `${at}/${key}`, seen);
    }
  }
}

const sorted = (map: Map<string, number>): FieldUse[] => [...map].sort(([a], [b]) => a.localeCompare(b)).map(([field, count]) => ({ field, count }));

/** Fields beyond the document, and deprecated ones, in the bodies read: reported, never judged. */
export function observeFields(name: SchemaName, bodies: unknown[]): FieldObservations {
  const maps: [Map<string, number>, Map<string, number>] = [new Map(), new Map()];
  for (const body of bodies) walk(schemaOf(name), body, '', { unknown: [], deprecated: [], maps });
  return { unknown: sorted(maps[0]), deprecated: sorted(maps[1]) };
}
