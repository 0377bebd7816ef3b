import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadSchemas } from '../../harness/contracts/contracts.ts';
import { rowDifferences, type RowDifference } from '../../harness/document/document-contracts.ts';
import { documentText } from '../../harness/contracts/document.ts';
import { documentTables } from '../../harness/document/document-rows.ts';
import { documentParts } from '../../harness/document/document-tables.ts';

// Issue 31, point 3: the contracts are derived from the document row by row. The shipped document and the
// contracts agree; each edited copy below, the shipped text changed in one place, differs in exactly the rows
// named, each with the clauses it touches.

const SHIPPED = documentText();

function differencesOf(text: string): RowDifference[] {
  const read = documentTables(text);
  if ('notTheDocument' in read) throw new Error(`not the document: ${read.notTheDocument}`);
  return rowDifferences(read.tables, loadSchemas(), loadCatalogue());
}

test('the shipped document and the contracts agree, row by row, in every table of sections 2 and 3', () => {
  const read = documentTables(SHIPPED);
  if ('notTheDocument' in read) throw new Error(read.notTheDocument);
  // Every row is read: agreement over tables read empty would prove nothing.
  expect(read.tables.map((t) => [t.section, t.form, t.rows.length])).toEqual([
    ['2.1', 'fields', 9],
    ['2.2', 'fields', 15],
    ['2.3', 'fields', 5],
    ['2.4', 'fields', 2],
    ['2.5', 'fields', 18],
    ['2.6', 'kinds', 5],
    ['2.7', 'fields', 3],
    ['3', 'states', 3],
  ]);
  expect(differencesOf(SHIPPED)).toEqual([]);
  expect(differencesOf(SHIPPED.replace(/\n/g, '\r\n')), 'the same text with CRLF line ends').toEqual([]);
});

/** One edit of the shipped text: `from` occurs in it exactly once, and the copy with `to` in its place differs so. */
interface EditedCopy {
  description: string;
  from: string;
  to: string;
  /** Each difference: table, row, aspect, what the document says, what the contract says, the clauses touched. */
  differences: [string, string, string, string, string, string[]][];
}

const EDITED_COPIES: EditedCopy[] = [
  {
    description: 'a field made nullable',
    from: '| name | string | yes | no | Token name',
    to: '| name | string | yes | yes | Token name',
    differences: [['2.1 Public signup token', 'name', 'nullable', 'yes', 'no', ['signup-token.token.nullability']]],
  },
  {
    description: 'a new required field',
    from: '| id | string | yes | no | Project id. |',
    to: '| id | string | yes | no | Project id. |\n| region | string | yes | no | Where the project is hosted. |',
    differences: [
      [
        '2.5 Project object',
        'region',
        'missing',
        'type string, required yes, nullable no',
        'no property',
        ['projects.project.types', 'projects.project.required', 'projects.project.nullability'],
      ],
    ],
  },
  {
    description: 'an enum value added to a field',
    from: 'Allowed values: `open`, `protected`, `private`.',
    to: 'Allowed values: `open`, `protected`, `private`, `secret`.',
    differences: [['2.5 Project object', 'mode', 'enum', 'open, private, protected, secret', 'open, private, protected', ['projects.project.types']]],
  },
  {
    description: 'an enum value added to a state',
    from: '| Project | mode | `open`, `protected`, `private` |',
    to: '| Project | mode | `open`, `protected`, `private`, `secret` |',
    differences: [
      ['3 States and transitions', 'Project mode', 'enum', 'open, private, protected, secret', 'open, private, protected', ['projects.project.types']],
    ],
  },
  {
    description: 'a field removed',
    from: '| email | string | no | Email of the user. |\n',
    to: '',
    differences: [
      ['2.2 User object', 'email', 'added', 'no row', 'type string, required no, nullable no', ['signup-token.user.types', 'signup-token.user.nullability']],
    ],
  },
  {
    description: 'a type changed',
    from: '| version | integer | yes |',
    to: '| version | number | yes |',
    differences: [['2.4 Projects list', 'version', 'type', 'number', 'integer', ['projects.list.types']]],
  },
  {
    description: 'a format changed',
    from: '| seenAt | string, date-time | yes |',
    to: '| seenAt | string, date | yes |',
    differences: [['2.2 User object', 'seenAt', 'format', 'date', 'date-time', ['signup-token.user.date-time']]],
  },
  {
    description: 'a field no longer marked required where fields are optional unless marked',
    from: 'User id. Required.',
    to: 'User id.',
    differences: [['2.2 User object', 'id', 'required', 'no', 'yes', ['signup-token.user.required']]],
  },
  {
    description: 'an object field holding another object',
    from: '| role | role object | yes | no |',
    to: '| role | user object | yes | no |',
    differences: [['2.1 Public signup token', 'role', 'type', 'user.schema.json', 'role.schema.json', ['signup-token.token.types']]],
  },
  {
    description: 'a field of one owner kind no longer nullable',
    from: 'imageUrl (string, nullable)',
    to: 'imageUrl (string)',
    differences: [['2.6 Owner object', 'imageUrl (user)', 'nullable', 'no', 'yes', ['projects.owner.user']]],
  },
  {
    description: 'an owner kind added',
    from: '| `system` | none |',
    to: '| `system` | none |\n| `team` | name (string, required) |',
    differences: [['2.6 Owner object', 'ownerType', 'enum', 'group, system, team, user', 'group, system, user', ['projects.owner.kind']]],
  },
  {
    description: 'a field added to the error object, judged whole by the clauses of section 7',
    from: '| message | string |',
    to: '| code | integer | Code of the error kind. |\n| message | string |',
    differences: [
      [
        '2.7 Error object',
        'code',
        'missing',
        'type integer, nullable no',
        'no property',
        ['error.signup-token.401', 'error.signup-token.403', 'error.projects.401', 'error.projects.403'],
      ],
    ],
  },
  {
    description: 'a state that may be null',
    from: '| Signup token | enabled | `true`, `false`.',
    to: '| Signup token | enabled | `true`, `false` or null.',
    differences: [['3 States and transitions', 'Signup token enabled', 'nullable', 'yes', 'no', ['signup-token.token.nullability']]],
  },
  {
    description: 'a Required cell that is neither yes nor no',
    from: '| project | string | no | yes |',
    to: '| project | string | maybe | yes |',
    differences: [['2.3 Role object', 'project', 'required', 'maybe', 'no', ['signup-token.role.required']]],
  },
];

for (const copy of EDITED_COPIES)
  test(`an edited copy of the document, ${copy.description}, differs from the contracts in the row it names`, () => {
    expect(SHIPPED.split(copy.from), `"${copy.from}" occurs once in the shipped document`).toHaveLength(2);
    const found = differencesOf(SHIPPED.replace(copy.from, copy.to)).map((d) => [d.table, d.row, d.aspect, d.document, d.schema, d.clauses]);
    expect(found).toEqual(copy.differences);
  });

test('a table with no contract, and a contract with no table, are each one difference', () => {
  const role = SHIPPED.slice(SHIPPED.indexOf('### 2.3 Role object'), SHIPPED.indexOf('### 2.4'));
  const found = differencesOf(SHIPPED.replace(role, '').replace('### 2.7 Error object', '### 2.8 Error object')).map((d) => [d.table, d.row, d.aspect]);
  expect(found).toEqual([
    ['2.1 Public signup token', 'role', 'type'],
    ['2.8 Error object', '(the table)', 'missing'],
    ['2.3', '(the table)', 'added'],
    ['2.7', '(the table)', 'added'],
  ]);
});

test('a text without tables of fields in a section 2 is not the document', () => {
  for (const text of [
    '',
    '# Notes\n\nNothing here.',
    '## 2. Resources and their fields\n\nNo table.',
    SHIPPED.replace('## 2. Resources', '## Resources').replace(/### 2\./g, '### '),
  ])
    expect(documentTables(text)).toEqual({ notTheDocument: 'it has no section 2 with tables of fields' });
});

/** One edit of the shipped contracts, made on a copy in memory: the document is then the side that differs. */
const EDITED_CONTRACTS: { description: string; file: string; edit: (schema: Record<string, any>) => void; differences: [string, string, string][] }[] = [
  {
    description: 'a field no longer nullable',
    file: 'public-signup-token.schema.json',
    edit: (s) => (s.properties.url.type = 'string'),
    differences: [['2.1 Public signup token', 'url', 'nullable']],
  },
  {
    description: 'a property no row backs',
    file: 'role.schema.json',
    edit: (s) => (s.properties.color = { type: 'string' }),
    differences: [['2.3 Role object', 'color', 'added']],
  },
  {
    description: 'a property of the owner kind that has no other field',
    file: 'owner.schema.json',
    edit: (s) => (s.oneOf[2].properties.since = { type: 'string' }),
    differences: [['2.6 Owner object', 'since (system)', 'added']],
  },
  {
    description: 'a format dropped',
    file: 'project.schema.json',
    edit: (s) => delete s.properties.archivedAt.format,
    differences: [['2.5 Project object', 'archivedAt', 'format']],
  },
];

for (const copy of EDITED_CONTRACTS)
  test(`an edited copy of the contracts, ${copy.description}, differs from the document in the row it names`, () => {
    const schemas = loadSchemas();
    const edited = structuredClone(schemas.get(copy.file)!);
    copy.edit(edited);
    const read = documentTables(SHIPPED);
    if ('notTheDocument' in read) throw new Error(read.notTheDocument);
    const found = rowDifferences(read.tables, new Map([...schemas, [copy.file, edited]]), loadCatalogue()).map((d) => [d.table, d.row, d.aspect]);
    expect(found).toEqual(copy.differences);
  });

// A file handed to `document` (or a bundle's text of the document) may be anyone's: no line of it takes longer to
// read than its length. A title with long runs of spaces inside made a lazy pattern try every split of them; at
// 1 MiB that is hours, so this test ends by its timeout without the fix.
test('a text whose 1 MiB heading holds long runs of spaces is read in one pass, its title trimmed (no pattern backtracks over a line)', () => {
  const title = `A${' '.repeat(1 << 19)}B`;
  const parts = documentParts(`# Admin API\n\n## 2.1 ${title}${' '.repeat(1 << 19)}\n\nprose\n`);
  expect(parts.map((p) => [p.number, p.heading])).toEqual([['2.1', title]]);
  expect('notTheDocument' in documentTables(`## 2 ${title}\n`)).toBe(true);
});
