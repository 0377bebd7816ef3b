import type { JsonSchema } from '../contracts/contracts.ts';
import type { DocumentRow, DocumentTable, RowAspect } from './document-rows.ts';
import { clausesTouched, type ContractPlace } from './row-clauses.ts';
import { isNode, type Node } from '../contracts/validator.ts';

// Where in the contracts a row of the document lies: the contract of its table, the kind of a union (2.6) and
// the property it names; and so the clauses it touches. Shared by the comparison of the document with the
// contracts (document-contracts.ts) and of two texts of the document (document-changes.ts).

/** Which contract holds each table of section 2; each contract's description names its section too. */
export const CONTRACT_OF_TABLE: Record<string, string> = {
  '2.1': 'public-signup-token.schema.json',
  '2.2': 'user.schema.json',
  '2.3': 'role.schema.json',
  '2.4': 'projects.schema.json',
  '2.5': 'project.schema.json',
  '2.6': 'owner.schema.json',
  '2.7': 'error.schema.json',
};

/** The kind of schema error that breaks each aspect (see CLAUSES_KEYWORD): an enum's errors are type errors. */
export const ERROR_OF: Record<RowAspect, string> = { type: 'type', required: 'required', nullable: 'null', format: 'format', enum: 'type' };
/** The property that tells a union's kinds apart: a value outside them is the discriminator's error. */
export const KIND_ERROR_OF: Record<RowAspect, string> = { ...ERROR_OF, enum: 'discriminator' };

export const propertiesOf = (node: Node): Node => (isNode(node.properties) ? node.properties : {});
export const stringsOf = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A union's branches (2.6), each with the kind its property `by` holds. */
export function branchesOf(schema: Node, by: string): { branch: Node; kind?: string }[] {
  return (Array.isArray(schema.oneOf) ? schema.oneOf : []).filter(isNode).map((branch) => {
    const tag = propertiesOf(branch)[by];
    return { branch, kind: isNode(tag) && typeof tag.const === 'string' ? tag.const : undefined };
  });
}

/** The tables of section 2 a state's resource names: "Signup token" is the "Public signup token", "Project" the "Project object". */
export function holdersOf(resource: string, tables: DocumentTable[]): DocumentTable[] {
  const end = resource.toLowerCase();
  const named = tables.filter((t) => t.form === 'fields').map((t): [string, DocumentTable] => [t.name.toLowerCase().replace(/ object$/, ''), t]);
  return end === '' ? [] : named.filter(([name]) => name.endsWith(end)).map(([, t]) => t);
}

/** A row's place in the contracts: its contract (and kind), the property it names there, and the errors of each aspect. */
export interface RowPlace {
  place: ContractPlace;
  property: unknown;
  errorOf: Record<RowAspect, string>;
}

/** Where a row of `table` (one of `tables`, a text's tables) lies in the contracts; undefined when no contract holds it. */
export function placeOfRow(table: DocumentTable, row: DocumentRow, tables: DocumentTable[], schemas: Map<string, JsonSchema>): RowPlace | undefined {
  const holders = table.form === 'states' ? holdersOf(row.resource ?? '', tables) : [table];
  const file = holders.length === 1 ? CONTRACT_OF_TABLE[holders[0].section] : undefined;
  const schema = file === undefined ? undefined : schemas.get(file);
  if (file === undefined || schema === undefined) return undefined;
  if (table.form !== 'kinds') return { place: { file }, property: propertiesOf(schema)[row.field], errorOf: ERROR_OF };
  if (row.kind === undefined) return { place: { file }, property: undefined, errorOf: KIND_ERROR_OF };
  const branch = branchesOf(schema, table.kindsBy ?? '').find((b) => b.kind === row.kind)?.branch;
  return { place: { file, kind: branch }, property: branch && propertiesOf(branch)[row.field], errorOf: ERROR_OF };
}

/** The clauses whose verdicts rest on these aspects of a row; none when no contract holds it. */
export function rowClauses(
  table: DocumentTable,
  row: DocumentRow,
  aspects: RowAspect[],
  tables: DocumentTable[],
  schemas: Map<string, JsonSchema>,
  catalogue: Parameters<typeof clausesTouched>[4],
): string[] {
  const at = placeOfRow(table, row, tables, schemas);
  if (at === undefined) return [];
  return clausesTouched(
    at.place,
    at.property,
    aspects.map((a) => at.errorOf[a]),
    schemas,
    catalogue,
  );
}
