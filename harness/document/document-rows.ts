import { documentParts, type DocumentPart, type MarkdownTable } from './document-tables.ts';

// The rows of the document's field tables (section 2) and of its state table (section 3), each read into
// what it says of one field in the words the comparison with the contracts uses (document-contracts.ts).

/** What a row may say of a field. The words are the comparison's: "yes"/"no", "none", "any". */
export type RowAspect = 'type' | 'required' | 'nullable' | 'format' | 'enum';

export interface DocumentRow {
  field: string;
  /** In a table of kinds (2.6): the kind the field belongs to. */
  kind?: string;
  /** In the state table (3): the resource the field belongs to, as the table names it ("Signup token"). */
  resource?: string;
  /** What the row says; an aspect the document leaves unsaid is absent. */
  says: Partial<Record<RowAspect, string>>;
}

export const ASPECTS: RowAspect[] = ['type', 'required', 'nullable', 'format', 'enum'];

/** The aspects of a field a clause can judge: its type and nullability, and the others where it has them. */
export const aspectsOf = (says: Partial<Record<RowAspect, string>>) =>
  ASPECTS.filter((a) => a === 'type' || a === 'nullable' || !['no', 'none', 'any', undefined].includes(says[a]));

/** A field in a few words: its type, whether it is required and nullable, a format and values where it has them. */
export const described = (says: Partial<Record<RowAspect, string>>) =>
  ASPECTS.filter((a) => says[a] !== undefined && says[a] !== 'none' && says[a] !== 'any')
    .map((a) => `${a} ${says[a]}`)
    .join(', ');

/** A row by its field, after the resource of a state ("Project mode"), before the kind of a union ("name (user)"). */
export const rowName = (row: DocumentRow) => [row.resource, row.field].filter(Boolean).join(' ') + (row.kind ? ` (${row.kind})` : '');

/**
 * A table of the document: of an object's fields (2.1 to 2.5, 2.7), of a union's kinds (2.6, told apart by the
 * property `kindsBy`), or of the fields that bear a state (3).
 */
export interface DocumentTable {
  section: string;
  /** The object it describes ("Owner object"), or the heading of its part ("States and transitions"). */
  name: string;
  form: 'fields' | 'kinds' | 'states';
  kindsBy?: string;
  /** The kinds a table of kinds lists, in its order. */
  kinds?: string[];
  rows: DocumentRow[];
}

/** A table by its section and name: "2.5 Project object". */
export const tableLabel = (table: DocumentTable) => `${table.section} ${table.name}`;

/**
 * The most a text of the document may hold: the document is 9 KB, and a text over a hundred times as long is
 * none of its versions. Comparing a state with every table is quadratic: the bound keeps a made-up text to seconds.
 */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

export type DocumentTables = { tables: DocumentTable[] } | { notTheDocument: string };

const unquoted = (cell: string) => cell.replace(/`/g, '').trim();
const yesNo = (cell: string) => (/^(yes|no)$/i.test(cell.trim()) ? cell.trim().toLowerCase() : cell.trim());
const quotedValues = (text: string) => [...new Set([...text.matchAll(/`([^`]*)`/g)].map((m) => m[1]))].sort();
const listed = (values: string[]) => (values.length === 0 ? 'any' : values.join(', '));

/** "Owner object (element of `owners`), one of three kinds …" is the table of the "Owner object". */
const tableName = (heading: string) => heading.replace(/\s*[(,].*$/, '');

/** "string, date-time" is a string of the date-time format; "array of user objects" has none. */
function typeAndFormat(cell: string): Pick<DocumentRow['says'], 'type' | 'format'> {
  const [type, format] = cell.split(/\s*,\s*/);
  return { type: type.trim(), format: format?.trim() || 'none' };
}

/** The values a field's meaning lists in the sentence after "Allowed values:", each in backticks; "any" when it lists none. */
function allowedValues(meaning: string): string {
  const at = meaning.search(/Allowed values:/i);
  const sentence = at < 0 ? '' : meaning.slice(at).split(/\.(?:\s|$)/)[0];
  return listed(quotedValues(sentence));
}

/**
 * A table of fields (Field, Type, and Required, Nullable, Meaning where it has them). Without a Required column,
 * a table whose prose says "All fields are optional unless marked otherwise" (2.2) makes required the fields
 * whose meaning says "Required."; a table with neither (2.7) says nothing of it (section 7 decides what an error
 * object holds, as contracts/error.schema.json says). Without a Nullable column (2.4, 2.7) each field has the
 * type its Type cell gives, which null is not.
 */
function fieldRows(table: MarkdownTable, optionalUnlessMarked: boolean): DocumentRow[] {
  const column = (name: string) => table.header.findIndex((h) => h.toLowerCase() === name);
  const [field, type, required, nullable, meaning] = ['field', 'type', 'required', 'nullable', 'meaning'].map(column);
  return table.rows.map((cells) => {
    const says: DocumentRow['says'] = { ...typeAndFormat(cells[type] ?? ''), enum: allowedValues(cells[meaning] ?? '') };
    if (required >= 0) says.required = yesNo(cells[required] ?? '');
    else if (optionalUnlessMarked) says.required = /(^|\.\s+)Required\.(\s|$)/.test(cells[meaning] ?? '') ? 'yes' : 'no';
    says.nullable = nullable >= 0 ? yesNo(cells[nullable] ?? '') : 'no';
    return { field: unquoted(cells[field] ?? ''), says };
  });
}

/**
 * A table of kinds (2.6): each row a kind, named in backticks in the first column, and its other fields as
 * "name (string, required); imageUrl (string, nullable)", each optional and not nullable unless marked so. The
 * property that tells the kinds apart takes the kinds as its values, and is required where the prose says so.
 */
function kindRows(table: MarkdownTable, property: string, requiredByProse: Set<string>): DocumentRow[] {
  const kinds = table.rows.map((cells) => unquoted(cells[0] ?? ''));
  const rows: DocumentRow[] = [{ field: property, says: { required: requiredByProse.has(property) ? 'yes' : 'no', enum: listed([...new Set(kinds)].sort()) } }];
  for (const [i, cells] of table.rows.entries()) {
    const others = (cells[1] ?? '').trim();
    if (/^none$/i.test(others)) continue;
    for (const entry of others.split(/\s*;\s*/)) {
      const [, field = entry, attributes = ''] = /^(\S+)\s*\(([^)]*)\)$/.exec(entry.trim()) ?? [];
      const [type = '', ...marks] = attributes.split(/\s*,\s*/);
      const format = marks.find((m) => !/^(required|nullable)$/i.test(m)) ?? 'none';
      const marked = (word: string) => (marks.some((m) => m.toLowerCase() === word) ? 'yes' : 'no');
      rows.push({ field: unquoted(field), kind: kinds[i], says: { type, format, required: marked('required'), nullable: marked('nullable'), enum: 'any' } });
    }
  }
  return rows;
}

/** The state table (Resource, Field, Values): the values quoted in backticks, and null where the cell names it. */
function stateRows(table: MarkdownTable): DocumentRow[] {
  const [resource, field, values] = ['resource', 'field', 'values'].map((name) => table.header.findIndex((h) => h.toLowerCase() === name));
  return table.rows.map((cells) => ({
    resource: (cells[resource] ?? '').trim(),
    field: unquoted(cells[field] ?? ''),
    says: { enum: listed(quotedValues(cells[values] ?? '')), nullable: /\bnull\b/i.test(cells[values] ?? '') ? 'yes' : 'no' },
  }));
}

const isSubpart = (part: DocumentPart, of: string) => part.number.startsWith(`${of}.`);
const hasColumn = (table: MarkdownTable, name: string) => table.header.some((h) => h.toLowerCase() === name);

/** The document's tables of fields (section 2) and of states (3), row by row; or why the text is not the document. */
export function documentTables(text: string): DocumentTables {
  const parts = documentParts(text);
  const tables: DocumentTable[] = [];
  for (const part of parts.filter((p) => isSubpart(p, '2'))) {
    const [section, name] = [part.number, tableName(part.heading)];
    const optionalUnlessMarked = /all fields are optional unless marked otherwise/i.test(part.prose);
    // "`ownerType` is required in every kind."
    const requiredByProse = new Set([...part.prose.matchAll(/`([^`]*)` is required/g)].map((m) => m[1]));
    for (const table of part.tables) {
      const kindsBy = unquoted(table.header[0] ?? '');
      if (hasColumn(table, 'field')) tables.push({ section, name, form: 'fields', rows: fieldRows(table, optionalUnlessMarked) });
      else
        tables.push({
          section,
          name,
          form: 'kinds',
          kindsBy,
          kinds: table.rows.map((c) => unquoted(c[0] ?? '')),
          rows: kindRows(table, kindsBy, requiredByProse),
        });
    }
  }
  if (!parts.some((p) => p.number === '2') || tables.length === 0) return { notTheDocument: 'it has no section 2 with tables of fields' };
  for (const part of parts.filter((p) => p.number === '3'))
    for (const table of part.tables.filter((t) => hasColumn(t, 'resource') && hasColumn(t, 'values')))
      tables.push({ section: part.number, name: part.heading, form: 'states', rows: stateRows(table) });
  return { tables };
}
