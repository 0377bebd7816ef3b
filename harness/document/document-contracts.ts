import type { Clause } from '../contracts/catalogue.ts';
import type { JsonSchema } from '../contracts/contracts.ts';
import { ASPECTS, aspectsOf, described, type DocumentRow, type DocumentTable, type RowAspect, rowName, tableLabel } from './document-rows.ts';
import { clausesTouched, type ContractPlace } from './row-clauses.ts';
import { branchesOf, CONTRACT_OF_TABLE, ERROR_OF, holdersOf, KIND_ERROR_OF, propertiesOf, stringsOf } from './row-places.ts';
import { isNode, type Node } from '../contracts/validator.ts';

// The document's tables against the contracts, row by row: every field of a table is a property of its
// contract with the type, required-ness, nullability, format and allowed values the row gives, and every
// property of a contract is a row. The words are those of a description's drift (description-drift.ts):
// a field "missing" from the contracts, one "added" by them.

export type RowDifferenceAspect = RowAspect | 'missing' | 'added';

export interface RowDifference {
  /** The table, by its section and name: "2.5 Project object". */
  table: string;
  /** The row: its field, after the resource of a state ("Project mode"), before the kind of a union ("name (user)"). */
  row: string;
  aspect: RowDifferenceAspect;
  document: string;
  /** The contract the row is compared with, by its file in contracts/; absent for a table that has none. */
  contract?: string;
  schema: string;
  /** The clauses of contracts/clauses.yaml whose verdicts rest on what differs. */
  clauses: string[];
}

type Says = Record<RowAspect, string>;

/** A contract's type in the document's terms: an object by its contract's file, a list by its items'. */
function typeWords(node: Node): string {
  if (typeof node.$ref === 'string') return node.$ref;
  const types = [node.type].flat().filter((t): t is string => typeof t === 'string' && t !== 'null');
  if (types.join() === 'array') return `array of ${isNode(node.items) ? typeWords(node.items) : 'any'}`;
  return types.join(' or ') || 'any';
}

/** What a contract says of a property, in a row's words. */
function contractSays(node: Node, required: boolean): Says {
  const values = Array.isArray(node.enum) ? node.enum : node.const !== undefined ? [node.const] : [];
  return {
    type: typeWords(node),
    required: required ? 'yes' : 'no',
    nullable: [node.type].flat().includes('null') ? 'yes' : 'no',
    format: typeof node.format === 'string' ? node.format : 'none',
    enum: values.length === 0 ? 'any' : values.map(String).sort().join(', '),
  };
}

/** A type the document gives, an object named by its contract: "array of user objects" → "array of user.schema.json". */
function resolvedType(words: string, objects: Map<string, string>): string {
  const array = /^array of (.+)$/i.exec(words);
  if (array) return `array of ${resolvedType(array[1], objects)}`;
  const object = /^(.+? object)s?$/i.exec(words);
  return (object && objects.get(object[1].toLowerCase())) ?? words;
}

interface Comparison {
  schemas: Map<string, JsonSchema>;
  catalogue: Clause[];
  /** Each object the document names ("user object"), with its contract's file. */
  objects: Map<string, string>;
  out: RowDifference[];
}

/** Rows of one table, and the object (a contract, a kind of it, or one property) they are compared with. */
interface Compared {
  table: string;
  rows: DocumentRow[];
  properties: Node;
  required: string[];
  place: ContractPlace;
  kind?: string;
  errorOf?: Record<RowAspect, string>;
}

/** One object's rows against its properties, both ways. */
function compareObject(c: Comparison, { table, rows, properties, required, place, kind, errorOf = ERROR_OF }: Compared): void {
  const touched = (property: unknown, aspects: RowAspect[]) =>
    clausesTouched(
      place,
      property,
      aspects.map((a) => errorOf[a]),
      c.schemas,
      c.catalogue,
    );
  const at = { table, contract: place.file };
  for (const row of rows) {
    const property = properties[row.field];
    const ours = { ...row.says, ...(row.says.type !== undefined && { type: resolvedType(row.says.type, c.objects) }) };
    if (!isNode(property)) {
      c.out.push({
        ...at,
        row: rowName(row),
        aspect: 'missing',
        document: described(ours),
        schema: 'no property',
        clauses: touched(undefined, aspectsOf(ours)),
      });
      continue;
    }
    const theirs = contractSays(property, required.includes(row.field));
    for (const aspect of ASPECTS.filter((a) => ours[a] !== undefined && ours[a] !== theirs[a]))
      c.out.push({ ...at, row: rowName(row), aspect, document: ours[aspect]!, schema: theirs[aspect], clauses: touched(property, [aspect]) });
  }
  const named = new Set(rows.map((r) => r.field));
  for (const [field, property] of Object.entries(properties)) {
    if (named.has(field) || !isNode(property)) continue;
    const theirs = contractSays(property, required.includes(field));
    const row = rowName({ field, kind, says: {} });
    c.out.push({ ...at, row, aspect: 'added', document: 'no row', schema: described(theirs), clauses: touched(property, aspectsOf(theirs)) });
  }
}

/** A union's table (2.6): the property that tells the kinds apart, then each kind's fields against its branch. */
function compareKinds(c: Comparison, table: string, kinds: DocumentTable, schema: Node, file: string): void {
  const by = kinds.kindsBy ?? '';
  const branches = branchesOf(schema, by);
  const required = stringsOf(schema.required);
  const union = { [by]: { enum: branches.map((b) => b.kind ?? '(no kind)') } };
  compareObject(c, { table, rows: kinds.rows.filter((r) => r.kind === undefined), properties: union, required, place: { file }, errorOf: KIND_ERROR_OF });
  // A kind the contract lacks, or one it adds, is said once: as a value of the property that tells them apart.
  const rowsOf = new Map<string, DocumentRow[]>();
  for (const row of kinds.rows) {
    if (row.kind === undefined) continue;
    const list = rowsOf.get(row.kind) ?? [];
    rowsOf.set(row.kind, list);
    list.push(row);
  }
  for (const kind of new Set(kinds.kinds)) {
    const branch = branches.find((b) => b.kind === kind)?.branch;
    if (!branch) continue;
    const { [by]: _tag, ...properties } = propertiesOf(branch);
    const rows = rowsOf.get(kind) ?? [];
    compareObject(c, { table, rows, properties, required: [...required, ...stringsOf(branch.required)], place: { file, kind: branch }, kind });
  }
}

/** The state table (3): each row against the property of the object its resource names (2.x). */
function compareStates(c: Comparison, table: string, states: DocumentRow[], tables: DocumentTable[]): void {
  for (const row of states) {
    const holders = holdersOf(row.resource ?? '', tables);
    const file = holders.length === 1 ? CONTRACT_OF_TABLE[holders[0].section] : undefined;
    const schema = file === undefined ? undefined : c.schemas.get(file);
    if (file === undefined || schema === undefined) {
      c.out.push({
        table,
        row: rowName(row),
        aspect: 'missing',
        document: described(row.says),
        schema: `no contract, as no one table of section 2 is the ${row.resource}`,
        clauses: [],
      });
      continue;
    }
    // A boolean's values are true and false: a state table that lists both adds nothing to its type.
    const typed = holders[0].rows.find((r) => r.field === row.field)?.says.type;
    const says = { ...row.says, enum: typed === 'boolean' && row.says.enum === 'false, true' ? 'any' : row.says.enum };
    const property = propertiesOf(schema)[row.field];
    const properties = property === undefined ? {} : { [row.field]: property };
    compareObject(c, { table, rows: [{ ...row, says }], properties, required: stringsOf(schema.required), place: { file } });
  }
}

/** Every difference between the document's tables and the contracts; none when they agree row by row. */
export function rowDifferences(tables: DocumentTable[], schemas: Map<string, JsonSchema>, catalogue: Clause[]): RowDifference[] {
  const objects = new Map(
    tables.filter((t) => t.form !== 'states' && CONTRACT_OF_TABLE[t.section]).map((t) => [t.name.toLowerCase(), CONTRACT_OF_TABLE[t.section]]),
  );
  const c: Comparison = { schemas, catalogue, objects, out: [] };
  const compared = new Set<string>();
  for (const table of tables) {
    const label = tableLabel(table);
    if (table.form === 'states') {
      compareStates(c, label, table.rows, tables);
      continue;
    }
    const file = CONTRACT_OF_TABLE[table.section];
    const schema = file === undefined ? undefined : schemas.get(file);
    if (file === undefined || schema === undefined) {
      c.out.push({ table: label, row: '(the table)', aspect: 'missing', document: `${table.rows.length} rows`, schema: 'no contract', clauses: [] });
      continue;
    }
    compared.add(file);
    if (table.form === 'kinds') compareKinds(c, label, table, schema, file);
    else compareObject(c, { table: label, rows: table.rows, properties: propertiesOf(schema), required: stringsOf(schema.required), place: { file } });
  }
  const sectionOf = (file: string) => Object.keys(CONTRACT_OF_TABLE).find((s) => CONTRACT_OF_TABLE[s] === file) ?? `(${file})`;
  for (const file of [...schemas.keys()].filter((f) => !compared.has(f)).sort((a, b) => sectionOf(a).localeCompare(sectionOf(b)))) {
    const section = sectionOf(file);
    const clauses = clausesTouched({ file }, undefined, ['required', 'type', 'null', 'format', 'discriminator'], schemas, catalogue);
    const properties = Object.keys(propertiesOf(schemas.get(file)!)).length;
    c.out.push({ table: section, row: '(the table)', aspect: 'added', document: 'no table', contract: file, schema: `${properties} properties`, clauses });
  }
  return c.out;
}

/**
 * What a difference is, named from the document's side, for whoever edits it: a row the contracts lack is "a row
 * in the document that the contracts lack", never "missing", which reads as if the document lacked it.
 */
const ASPECT_WORDS: Partial<Record<RowDifferenceAspect, string>> = {
  missing: 'a row in the document that the contracts lack',
  added: 'in the contracts, not in the document',
};

/** A difference in one line: where, what it is, what each side says, and the clauses it touches. */
export function differenceLine(d: RowDifference): string {
  const touches = d.clauses.length > 0 ? `; touches ${d.clauses.join(', ')}` : '; no clause judges it';
  const contract = d.contract === undefined ? `the contracts: ${d.schema}` : `${d.contract} says ${d.schema}`;
  return `${d.table}, ${d.row}: ${ASPECT_WORDS[d.aspect] ?? d.aspect}: the document says ${d.document}; ${contract}${touches}`;
}
