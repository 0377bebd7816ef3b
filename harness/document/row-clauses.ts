import type { Clause } from '../contracts/catalogue.ts';
import type { JsonSchema } from '../contracts/contracts.ts';
import { CLAUSES_KEYWORD, isNode, type Node } from '../contracts/validator.ts';

// Which clauses a row of the document touches. A contract names the clause each kind of schema error breaks
// (its `clauses` annotation, CLAUSES_KEYWORD); the nearest annotation wins: a field's own (for its format), its
// kind's (2.6), its object's, then those of the object that holds it (a token's role, 2.3 within 2.1), as
// harness/judging/schema-tree.ts resolves them for a verdict. A field's type and nullability belong to the
// object that declares it, as there.

/**
 * The error object's contract carries no annotation: it is judged whole, by the clauses of section 7
 * (checks/7-errors.ts validates every 401 and 403 body against it), so its rows touch those.
 */
const JUDGED_WHOLE_BY: Record<string, string> = { 'error.schema.json': '7' };

/** Where in the contracts a row's field is declared: a contract, and the kind within it (2.6). */
export interface ContractPlace {
  file: string;
  kind?: Node;
}

/** The annotation keys of a node: kind of schema error → clause id. */
function ownAnnotations(node: unknown): Record<string, string> {
  const own = isNode(node) ? node[CLAUSES_KEYWORD] : undefined;
  return isNode(own) ? Object.fromEntries(Object.entries(own).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
}

function refersTo(node: unknown, file: string): boolean {
  if (Array.isArray(node)) return node.some((n) => refersTo(n, file));
  return isNode(node) && (node.$ref === file || Object.values(node).some((n) => refersTo(n, file)));
}

/** A contract's annotations over those of the contract that holds it, and so on up. */
function annotationsUp(file: string, schemas: Map<string, JsonSchema>, seen = new Set<string>()): Record<string, string> {
  seen.add(file);
  const holder = [...schemas.keys()].find((other) => !seen.has(other) && refersTo(schemas.get(other), file));
  return { ...(holder ? annotationsUp(holder, schemas, seen) : {}), ...ownAnnotations(schemas.get(file)) };
}

// Found once per set of contracts and file: a document may have many rows, and each asks.
const resolved = new WeakMap<Map<string, JsonSchema>, Map<string, Record<string, string>>>();

function annotationsOf(file: string, schemas: Map<string, JsonSchema>): Record<string, string> {
  const known = resolved.get(schemas) ?? new Map<string, Record<string, string>>();
  resolved.set(schemas, known);
  if (!known.has(file)) known.set(file, annotationsUp(file, schemas));
  return known.get(file)!;
}

/** The clauses that judge these kinds of schema error (`required`, `type`, `null`, `format`, `discriminator`) for a field declared here. */
export function clausesTouched(place: ContractPlace, property: unknown, keys: string[], schemas: Map<string, JsonSchema>, catalogue: Clause[]): string[] {
  const object = { ...annotationsOf(place.file, schemas), ...ownAnnotations(place.kind) };
  if (Object.keys(object).length === 0) {
    const section = JUDGED_WHOLE_BY[place.file];
    return section === undefined ? [] : catalogue.filter((c) => c.section === section).map((c) => c.id);
  }
  const found = keys.map((key) => (key === 'format' ? { ...object, ...ownAnnotations(property) } : object)[key]);
  return [...new Set(found.filter((id): id is string => id !== undefined))];
}
