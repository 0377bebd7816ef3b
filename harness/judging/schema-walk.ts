import { isNode } from '../contracts/validator.ts';
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

const TYPES = ['null', 'boolean', 'number', 'string', 'array', 'object'] as const;
type JsonType = (typeof TYPES)[number];

function typeIndex(value: unknown): number {
  if (value === null) return 0;
  if (Array.isArray(value)) return 4;
  return TYPES.indexOf(typeof value as JsonType);
}

function tally(map: Map<string, number>, key: string, n = 1): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/** What one place saw in one walk: values by JSON type, and keys the document does not define. */
interface PlaceTally {
  byType: number[];
  unknown: Map<string, number>;
}

// A list of a hundred thousand entries: per value, one counter of its place and type goes up; which clauses
// looked at it is worked out once per place at the end, not once per value.
type Tallies = Map<SchemaPlace, PlaceTally>;

function tallyOf(tallies: Tallies, place: SchemaPlace): PlaceTally {
  let found = tallies.get(place);
  if (!found) tallies.set(place, (found = { byType: [0, 0, 0, 0, 0, 0], unknown: new Map() }));
  return found;
}

function walkObject(place: SchemaPlace, data: Record<string, unknown>, tallies: Tallies, seen: BodyWalk): void {
  for (const key in data) {
    const field = place.properties.get(key);
    if (field === undefined) tally(tallyOf(tallies, place).unknown, key);
    else {
      if (field.deprecated) tally(seen.deprecated, field.path);
      walk(field, data[key], tallies, seen);
    }
  }
}

function walk(place: SchemaPlace, data: unknown, tallies: Tallies, seen: BodyWalk): void {
  if (data === undefined) return;
  const type = typeIndex(data);
  tallyOf(tallies, place).byType[type]++;
  if (Array.isArray(data) && place.items) for (const item of data) walk(place.items, item, tallies, seen);
  if (type !== 5 || !isNode(data)) return;
  const object = data;
  if (place.branches.length === 0) return walkObject(place, object, tallies, seen);
  // A union member of no known kind has no fields of the document: its kind is what breaks it.
  const branch = branchFor(place, object);
  if (branch) walk(branch, object, tallies, seen);
  else for (const key in object) tally(tallyOf(tallies, place).unknown, key);
}

/** Walks a body beside its contract once; a large list costs a counter per value and no other allocation. */
export function walkBody(tree: SchemaPlace, body: unknown): BodyWalk {
  const seen: BodyWalk = { looked: new Map(), unknown: new Map(), deprecated: new Map() };
  const tallies: Tallies = new Map();
  walk(tree, body, tallies, seen);
  for (const [place, { byType, unknown }] of tallies) {
    const values = byType.reduce((a, b) => a + b, 0);
    for (const clause of place.looks.any ?? []) tally(seen.looked, clause, values);
    TYPES.forEach((type, i) => {
      if (byType[i] > 0) for (const clause of place.looks[type] ?? []) tally(seen.looked, clause, byType[i]);
    });
    for (const [key, n] of unknown) tally(seen.unknown, `${place.path}/${key}`, n);
  }
  return seen;
}
