import { CLAUSES_KEYWORD, isNode, type Node, type SchemaName, validators } from '../contracts/validator.ts';

/** The kinds of schema error the contracts attribute to clauses (see CLAUSES_KEYWORD). */
export type Aspect = 'required' | 'type' | 'null' | 'format' | 'range' | 'minItems' | 'discriminator';

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/** One place of a contract, with the clause of every aspect resolved: the nearest annotation wins. */
export interface SchemaPlace {
  /** The place as a JSON pointer with array positions folded to "*", e.g. "/projects/*\/owners/*". */
  path: string;
  clauseOf: Partial<Record<Aspect, string>>;
  /**
   * The clauses of this place's own type and nullability. A field's type is part of the object that
   * declares it (the role of a token is judged as a field of the token, 2.1), so a field whose schema is
   * an object of its own takes these from its declaring object; list elements keep their own.
   */
  valueClauseOf: Partial<Record<Aspect, string>>;
  /** Clauses that look at a value here, by the value's JSON type ("any" for every value). */
  looks: Partial<Record<JsonType | 'any', string[]>>;
  /** Whether the contract types this value as integer and not as number. */
  integerOnly: boolean;
  deprecated: boolean;
  properties: Map<string, SchemaPlace>;
  items?: SchemaPlace;
  /** The kinds of a union told apart by a constant property (the owner kinds), in the contract's order. */
  branches: { property: string; value: unknown; place: SchemaPlace }[];
}

// Which aspect each keyword judges, and to which values it applies (JSON Schema applicability).
const KEYWORD_LOOKS: [keyword: string, aspects: Aspect[], appliesTo: JsonType | 'any'][] = [
  ['type', ['type', 'null'], 'any'],
  ['enum', ['type', 'null'], 'any'],
  ['required', ['required'], 'object'],
  ['discriminator', ['discriminator'], 'object'],
  ['format', ['format'], 'string'],
  ['minimum', ['range'], 'number'],
  ['maximum', ['range'], 'number'],
  ['minItems', ['minItems'], 'array'],
];

const VALUE_KEYWORDS = new Set(['type', 'enum']);

/** The clause a keyword's error of this aspect at this place belongs to. */
export function clauseFor(place: SchemaPlace, keyword: string, aspect: Aspect): string | undefined {
  return (VALUE_KEYWORDS.has(keyword) ? place.valueClauseOf : place.clauseOf)[aspect];
}

function looksOf(schema: Node, place: Pick<SchemaPlace, 'clauseOf' | 'valueClauseOf'>): SchemaPlace['looks'] {
  const looks: SchemaPlace['looks'] = {};
  for (const [keyword, aspects, appliesTo] of KEYWORD_LOOKS) {
    if (!(keyword in schema)) continue;
    for (const aspect of aspects) {
      const clause = clauseFor(place as SchemaPlace, keyword, aspect);
      const list = (looks[appliesTo] ??= []);
      if (clause !== undefined && !list.includes(clause)) list.push(clause);
    }
  }
  return looks;
}

function constOf(branch: Node, property: string): unknown {
  const properties = isNode(branch.properties) ? branch.properties : {};
  return isNode(properties[property]) ? properties[property].const : undefined;
}

function placeOf(schema: Node, path: string, inherited: SchemaPlace['clauseOf'], declaredBy?: SchemaPlace['clauseOf']): SchemaPlace {
  const own = isNode(schema[CLAUSES_KEYWORD]) ? (schema[CLAUSES_KEYWORD] as SchemaPlace['clauseOf']) : {};
  const clauseOf = { ...inherited, ...own };
  const valueClauseOf = declaredBy ? { ...clauseOf, type: declaredBy.type, null: declaredBy.null } : clauseOf;
  const types = [schema.type].flat();
  const place: SchemaPlace = {
    path,
    clauseOf,
    valueClauseOf,
    looks: looksOf(schema, { clauseOf, valueClauseOf }),
    integerOnly: types.includes('integer') && !types.includes('number'),
    deprecated: schema.deprecated === true,
    properties: new Map(),
    branches: [],
  };
  const properties = isNode(schema.properties) ? schema.properties : {};
  for (const [key, sub] of Object.entries(properties)) if (isNode(sub)) place.properties.set(key, placeOf(sub, `${path}/${key}`, clauseOf, clauseOf));
  if (isNode(schema.items)) place.items = placeOf(schema.items, `${path}/*`, clauseOf);
  const tag = isNode(schema.discriminator) ? schema.discriminator.propertyName : undefined;
  if (typeof tag === 'string' && Array.isArray(schema.oneOf)) {
    place.branches = schema.oneOf.filter(isNode).map((b) => ({ property: tag, value: constOf(b, tag), place: placeOf(b, path, clauseOf) }));
  }
  return place;
}

const trees = new Map<SchemaName, SchemaPlace>();

/** The contract of one object of section 2 as a tree of places, built once per process. */
export function schemaTree(name: SchemaName): SchemaPlace {
  let tree = trees.get(name);
  if (!tree) trees.set(name, (tree = placeOf(validators().schema(name), '', {})));
  return tree;
}

/** Every clause a contract attributes errors to, in the order the contract names them. */
export function clausesOfTree(place: SchemaPlace, found = new Set<string>()): Set<string> {
  for (const clause of [...Object.values(place.clauseOf), ...Object.values(place.valueClauseOf)]) if (clause !== undefined) found.add(clause);
  for (const sub of place.properties.values()) clausesOfTree(sub, found);
  if (place.items) clausesOfTree(place.items, found);
  for (const branch of place.branches) clausesOfTree(branch.place, found);
  return found;
}

/** The kind of union member a value is, by its constant property; undefined when it is none of them. */
export function branchFor(place: SchemaPlace, data: Record<string, unknown>): SchemaPlace | undefined {
  return place.branches.find((b) => data[b.property] === b.value)?.place;
}

/**
 * The place an error's schemaPath leads to ("#/properties/users/items/properties/id/type" → the place of
 * /users/*\/id), and the keyword at its end.
 */
export function placeOfSchemaPath(tree: SchemaPlace, schemaPath: string): { place: SchemaPlace; keyword: string } {
  const segments = schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let place = tree;
  let i = 0;
  for (; i < segments.length - 1; i++) {
    const [segment, next] = [segments[i], segments[i + 1]];
    const sub = segment === 'properties' ? place.properties.get(next) : segment === 'oneOf' ? place.branches[Number(next)]?.place : undefined;
    if (segment === 'items' && place.items) place = place.items;
    else if (sub) [place, i] = [sub, i + 1];
    else break;
  }
  return { place, keyword: segments[i] ?? '' };
}
