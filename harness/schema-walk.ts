import { branchFor, type SchemaPlace } from './schema-tree.ts';

/** What one walk of a body beside its contract saw: what each clause looked at, and the fields outside the document. */
export interface BodyWalk {
  /** Values each clause looked at, by clause id. */
  looked: Map<string, number>;
  /** Fields the document does not define, by folded path (array positions as "*"), with how often each came. */
  unknown: Map<string, number>;
  /** Fields the document marks deprecated, likewise. */
  deprecated: Map<string, number>;
}

function jsonType(value: unknown): 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'boolean' | 'number' | 'string' | 'object';
}

function tally(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function walkObject(place: SchemaPlace, data: Record<string, unknown>, seen: BodyWalk): void {
  for (const key in data) {
    const field = place.properties.get(key);
    if (field === undefined) tally(seen.unknown, `${place.path}/${key}`);
    else {
      if (field.deprecated) tally(seen.deprecated, field.path);
      walk(field, data[key], seen);
    }
  }
}

function walk(place: SchemaPlace, data: unknown, seen: BodyWalk): void {
  if (data === undefined) return;
  const type = jsonType(data);
  for (const clause of place.looks.any ?? []) tally(seen.looked, clause);
  for (const clause of place.looks[type] ?? []) tally(seen.looked, clause);
  if (type === 'array' && place.items) for (const item of data as unknown[]) walk(place.items, item, seen);
  if (type !== 'object') return;
  const object = data as Record<string, unknown>;
  if (place.branches.length === 0) return walkObject(place, object, seen);
  // A union member of no known kind has no fields of the document: its kind is what breaks it.
  const branch = branchFor(place, object);
  if (branch) walk(branch, object, seen);
  else for (const key in object) tally(seen.unknown, `${place.path}/${key}`);
}

/** Walks a body beside its contract once; a large list costs a few map updates per value and no other allocation. */
export function walkBody(tree: SchemaPlace, body: unknown): BodyWalk {
  const seen: BodyWalk = { looked: new Map(), unknown: new Map(), deprecated: new Map() };
  walk(tree, body, seen);
  return seen;
}
