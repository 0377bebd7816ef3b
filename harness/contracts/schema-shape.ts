import { isNode, type Node } from './validator.ts';
// What a schema says of a value, reduced to what the document's tables give: types, null, format, enum,
// bounds, and for an object its fields and which are required. Contracts (JSON Schema 2020-12) and a
// target's OpenAPI description (3.0 `nullable`, or 3.1 type lists) reduce to the same shape.

export interface Shape {
  /** The types other than null, sorted; empty when the schema says nothing of the type. */
  types: string[];
  nullable: boolean;
  format?: string;
  enum?: string[];
  bounds: { minimum?: number; maximum?: number; minItems?: number };
  fields?: Map<string, { shape: Shape; required: boolean }>;
  items?: Shape;
}

/** Finds what a `$ref` points to: a pointer into the same document, or another document by name. */
export type Resolve = (ref: string) => Node | undefined;

// A description is the target's: any keyword may hold anything, and is read as what it holds, never cast.
const asNode = (value: unknown): Node => (isNode(value) ? value : {});
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const namesOf = (value: unknown): string[] => listOf(value).filter((v): v is string => typeof v === 'string');
/** A value of a keyword in words: a string as it is, anything else as its JSON text (a type of 5 reads "5"). */
const word = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * One reading of a schema: each node is flattened and shaped once, however many references reach it. A
 * description whose schemas refer to one another twice at each of thirty levels would otherwise be read
 * 2^30 times for a few kilobytes. `seen` holds the references followed on the way to a node: one back to
 * them is a cycle, left as nothing known.
 */
interface Reading {
  resolve: Resolve;
  flat: Map<Node, Node>;
  shapes: Map<Node, Shape>;
}

/** Follows `$ref`s and merges `allOf` into one node; a `$ref` that does not resolve is left as nothing known. */
function flatten(node: Node, reading: Reading, seen: Set<Node>): Node {
  const known = reading.flat.get(node);
  if (known) return known;
  const flat = flattenOnce(node, reading, seen);
  reading.flat.set(node, flat);
  return flat;
}

function flattenOnce(node: Node, reading: Reading, seen: Set<Node>): Node {
  let current = node;
  while (typeof current.$ref === 'string') {
    const target = reading.resolve(current.$ref);
    if (!target || seen.has(target)) return {};
    seen.add(target);
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  if (!Array.isArray(current.allOf)) return current;
  const parts = current.allOf.map((part) => flatten(asNode(part), reading, new Set(seen)));
  const { allOf: _allOf, ...own } = current;
  return parts.reduce<Node>(
    (merged, part) => ({
      ...part,
      ...merged,
      properties: { ...asNode(part.properties), ...asNode(merged.properties) },
      required: [...namesOf(part.required), ...namesOf(merged.required)],
    }),
    own,
  );
}

/** The alternatives of a oneOf/anyOf, with `{type: null}` taken as "nullable". */
function alternatives(node: Node): { options: Node[]; nullable: boolean } {
  const list = listOf(node.oneOf ?? node.anyOf).map(asNode);
  const isNull = (n: Node) => n.type === 'null' || (Array.isArray(n.type) && n.type.length === 1 && n.type[0] === 'null');
  return { options: list.filter((n) => !isNull(n)), nullable: list.some(isNull) };
}

function typesOf(node: Node): { types: string[]; nullable: boolean } {
  const raw = node.type === undefined ? [] : [node.type].flat().map(word);
  const nullable = raw.includes('null') || node.nullable === true;
  const types = raw.filter((t) => t !== 'null');
  if (types.length === 0 && (node.properties !== undefined || node.required !== undefined)) types.push('object');
  if (types.length === 0 && node.items !== undefined) types.push('array');
  return { types: types.sort(), nullable };
}

/** The shape of a schema node; alternatives of an object (the owner kinds of 2.6) are merged into one. */
export function shapeOf(schema: unknown, resolve: Resolve): Shape {
  return shapeIn(asNode(schema), { resolve, flat: new Map(), shapes: new Map() }, new Set());
}

function shapeIn(schema: Node, reading: Reading, seen: Set<Node>): Shape {
  const known = reading.shapes.get(schema);
  if (known) return known;
  const node = flatten(schema, reading, seen);
  const { options, nullable: nullOption } = alternatives(node);
  const { types, nullable } = typesOf(node);
  const shape: Shape = { types, nullable: nullable || nullOption, bounds: {} };
  if (typeof node.format === 'string') shape.format = node.format;
  const values = node.const !== undefined ? [node.const] : node.enum === undefined ? undefined : [node.enum].flat();
  if (values)
    shape.enum = values
      .filter((v) => v !== null)
      .map(word)
      .sort();
  for (const key of ['minimum', 'maximum', 'minItems'] as const) if (typeof node[key] === 'number') shape.bounds[key] = node[key] as number;
  if (node.items !== undefined) shape.items = shapeIn(asNode(node.items), reading, new Set(seen));
  if (node.properties !== undefined || options.length > 0) shape.fields = fieldsOf(node, options, reading, seen);
  for (const option of options.map((o) => shapeIn(o, reading, new Set(seen)))) mergeOption(shape, option);
  reading.shapes.set(schema, shape);
  return shape;
}

function fieldsOf(node: Node, options: Node[], reading: Reading, seen: Set<Node>): Shape['fields'] {
  const required = new Set(namesOf(node.required));
  const fields: NonNullable<Shape['fields']> = new Map();
  for (const [name, sub] of Object.entries(asNode(node.properties)))
    fields.set(name, { shape: shapeIn(asNode(sub), reading, new Set(seen)), required: required.has(name) });
  // A field every alternative requires is required; one only some require is not.
  const flat = options.map((o) => flatten(o, reading, new Set(seen)));
  for (const name of new Set(flat.flatMap((o) => Object.keys(asNode(o.properties))))) {
    if (fields.has(name)) continue;
    const everywhere = flat.every((o) => namesOf(o.required).includes(name));
    fields.set(name, { shape: { types: [], nullable: false, bounds: {} }, required: everywhere || required.has(name) });
  }
  for (const name of required) if (!fields.has(name)) fields.set(name, { shape: { types: [], nullable: false, bounds: {} }, required: true });
  return fields;
}

/** Folds one alternative into the shape: its fields' types, and a discriminator's values, add up. Shapes are shared, so none is changed in place. */
function mergeOption(shape: Shape, option: Shape): void {
  if (shape.types.length === 0) shape.types = option.types;
  for (const [name, field] of option.fields ?? []) {
    const mine = shape.fields?.get(name);
    if (!mine) continue;
    if (mine.shape.types.length === 0) mine.shape = { ...field.shape };
    else if (field.shape.enum) mine.shape = { ...mine.shape, enum: [...new Set([...(mine.shape.enum ?? []), ...field.shape.enum])].sort() };
    if (field.shape.nullable) mine.shape = { ...mine.shape, nullable: true };
  }
}
