import type { Clause } from '../contracts/catalogue.ts';
import type { JsonSchema } from '../contracts/contracts.ts';
import { ASPECTS, aspectsOf, described, type DocumentRow, type DocumentTable, type RowAspect, rowName, tableLabel } from './document-rows.ts';
import { rowClauses } from './row-places.ts';

// Two texts of the document compared row by row: which rows of their tables of fields and states one adds,
// removes or changes (type, required-ness, nullability, format, allowed values), each with the clauses whose
// verdicts rest on it. Both texts are placed in the contracts this suite holds: a clause id never changes meaning.

export interface RowChange {
  /** The table, by its section and name: "2.5 Project object". */
  table: string;
  /** The row as document-contracts.ts names it: "featureCount", "Project mode", "name (user)". */
  row: string;
  /** The field the row is about, as a body names it. */
  field: string;
  /** `added`: a row of the new text only; `removed`: of the old text only; otherwise the aspect that changed. */
  aspect: RowAspect | 'added' | 'removed';
  /** What each text says: "no" then "yes"; a row only one text has is "no row" in the other. */
  old: string;
  new: string;
  /** The clauses of contracts/clauses.yaml whose verdicts rest on what changed. */
  clauses: string[];
}

interface Placed {
  table: DocumentTable;
  row: DocumentRow;
}

/** Every row of a text's tables, by its table and name; a name twice in one table is taken where it first is. */
function rowsOf(tables: DocumentTable[]): Map<string, Placed> {
  const rows = new Map<string, Placed>();
  for (const table of tables)
    for (const row of table.rows) {
      const key = `${tableLabel(table)}\u0000${rowName(row)}`;
      if (!rows.has(key)) rows.set(key, { table, row });
    }
  return rows;
}

/** The row changes from one text of the document to another, in the new text's order, then the rows it removed. */
export function documentChanges(before: DocumentTable[], after: DocumentTable[], schemas: Map<string, JsonSchema>, catalogue: Clause[]): RowChange[] {
  const [olds, news] = [rowsOf(before), rowsOf(after)];
  const clauses = (at: Placed, tables: DocumentTable[], aspects: RowAspect[]) => rowClauses(at.table, at.row, aspects, tables, schemas, catalogue);
  const named = (at: Placed) => ({ table: tableLabel(at.table), row: rowName(at.row), field: at.row.field });
  const changes: RowChange[] = [];
  for (const [key, now] of news) {
    const was = olds.get(key);
    if (was === undefined) {
      changes.push({ ...named(now), aspect: 'added', old: 'no row', new: described(now.row.says), clauses: clauses(now, after, aspectsOf(now.row.says)) });
      continue;
    }
    for (const aspect of ASPECTS.filter((a) => was.row.says[a] !== now.row.says[a])) {
      // Where the row lies may differ in the two texts (a state's resource renamed): the clauses of both places.
      const touched = new Set([...clauses(was, before, [aspect]), ...clauses(now, after, [aspect])]);
      changes.push({ ...named(now), aspect, old: was.row.says[aspect] ?? 'unsaid', new: now.row.says[aspect] ?? 'unsaid', clauses: [...touched] });
    }
  }
  for (const [key, was] of olds)
    if (!news.has(key))
      changes.push({ ...named(was), aspect: 'removed', old: described(was.row.says), new: 'no row', clauses: clauses(was, before, aspectsOf(was.row.says)) });
  return changes;
}

/** A row change in a few words: "2.5 Project object, featureCount: required no → yes". */
export function rowChangeText(change: RowChange): string {
  const what =
    change.aspect === 'added' || change.aspect === 'removed'
      ? `${change.aspect} (${change.aspect === 'added' ? change.new : change.old})`
      : `${change.aspect} ${change.old} → ${change.new}`;
  return `${change.table}, ${change.row}: ${what}`;
}
