import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadSchemas } from '../../harness/contracts/contracts.ts';
import { documentChanges, type RowChange, rowChangeText } from '../../harness/document/document-changes.ts';
import { documentText } from '../../harness/contracts/document.ts';
import { documentTables } from '../../harness/document/document-rows.ts';

// Issue 31, point 3: a changed document yields the rows that differ and the clauses they touch. Each new text
// below is the shipped one edited in one place; compared with the shipped text, it changes exactly the rows
// named, each with the clauses whose verdicts rest on it. The shipped text is the old one, unless said.

const SHIPPED = documentText();

function tablesOf(text: string) {
  const read = documentTables(text);
  if ('notTheDocument' in read) throw new Error(`not the document: ${read.notTheDocument}`);
  return read.tables;
}

const changesOf = (before: string, after: string) => documentChanges(tablesOf(before), tablesOf(after), loadSchemas(), loadCatalogue());
const asRows = (changes: RowChange[]) => changes.map((c) => [c.table, c.row, c.aspect, c.old, c.new, c.clauses]);

test('a text compared with itself, or with its CRLF copy, changes no row', () => {
  expect(changesOf(SHIPPED, SHIPPED)).toEqual([]);
  expect(changesOf(SHIPPED, SHIPPED.replace(/\n/g, '\r\n'))).toEqual([]);
  // Prose outside the tables is no row.
  expect(changesOf(SHIPPED, SHIPPED.replace('## 1. What the service does', '## 1. What the service does\n\nA new paragraph.'))).toEqual([]);
});

const EDITS: { description: string; from: string; to: string; old?: boolean; rows: [string, string, string, string, string, string[]][] }[] = [
  {
    description: 'a field made required',
    from: '| featureCount | number | no | no |',
    to: '| featureCount | number | yes | no |',
    rows: [['2.5 Project object', 'featureCount', 'required', 'no', 'yes', ['projects.project.required']]],
  },
  {
    description: 'a field marked required where fields are optional unless marked',
    from: '| email | string | no | Email of the user. |',
    to: '| email | string | no | Email of the user. Required. |',
    rows: [['2.2 User object', 'email', 'required', 'no', 'yes', ['signup-token.user.required']]],
  },
  {
    description: 'a field made nullable',
    from: '| name | string | yes | no | Token name',
    to: '| name | string | yes | yes | Token name',
    rows: [['2.1 Public signup token', 'name', 'nullable', 'no', 'yes', ['signup-token.token.nullability']]],
  },
  {
    description: 'a type and a format changed in one row',
    from: '| seenAt | string, date-time | yes |',
    to: '| seenAt | integer | yes |',
    rows: [
      ['2.2 User object', 'seenAt', 'type', 'string', 'integer', ['signup-token.user.types']],
      ['2.2 User object', 'seenAt', 'format', 'date-time', 'none', ['signup-token.user.date-time']],
    ],
  },
  {
    description: 'an allowed value added to a field',
    from: 'Allowed values: `open`, `protected`, `private`.',
    to: 'Allowed values: `open`, `protected`, `private`, `secret`.',
    rows: [['2.5 Project object', 'mode', 'enum', 'open, private, protected', 'open, private, protected, secret', ['projects.project.types']]],
  },
  {
    description: 'a state that may be null',
    from: '| Signup token | enabled | `true`, `false`.',
    to: '| Signup token | enabled | `true`, `false` or null.',
    rows: [['3 States and transitions', 'Signup token enabled', 'nullable', 'no', 'yes', ['signup-token.token.nullability']]],
  },
  {
    description: 'a new required field',
    from: '| id | string | yes | no | Project id. |',
    to: '| id | string | yes | no | Project id. |\n| region | string | yes | no | Where the project is hosted. |',
    rows: [
      [
        '2.5 Project object',
        'region',
        'added',
        'no row',
        'type string, required yes, nullable no',
        ['projects.project.types', 'projects.project.required', 'projects.project.nullability'],
      ],
    ],
  },
  {
    description: 'a field removed',
    from: '| email | string | no | Email of the user. |\n',
    to: '',
    rows: [
      ['2.2 User object', 'email', 'removed', 'type string, required no, nullable no', 'no row', ['signup-token.user.types', 'signup-token.user.nullability']],
    ],
  },
  {
    description: 'a field of one owner kind no longer nullable',
    from: 'imageUrl (string, nullable)',
    to: 'imageUrl (string)',
    rows: [['2.6 Owner object', 'imageUrl (user)', 'nullable', 'yes', 'no', ['projects.owner.user']]],
  },
  {
    description: 'an owner kind added',
    from: '| `system` | none |',
    to: '| `system` | none |\n| `team` | name (string, required) |',
    rows: [
      ['2.6 Owner object', 'ownerType', 'enum', 'group, system, user', 'group, system, team, user', ['projects.owner.kind']],
      // The contracts have no kind "team": its field is placed on the union, whose annotations name the clause of kinds.
      ['2.6 Owner object', 'name (team)', 'added', 'no row', 'type string, required yes, nullable no', ['projects.owner.kind']],
    ],
  },
  {
    description: 'a field added to the error object, judged whole by the clauses of section 7',
    from: '| message | string |',
    to: '| code | integer | Code of the error kind. |\n| message | string |',
    rows: [
      [
        '2.7 Error object',
        'code',
        'added',
        'no row',
        'type integer, nullable no',
        ['error.signup-token.401', 'error.signup-token.403', 'error.projects.401', 'error.projects.403'],
      ],
    ],
  },
  {
    description: 'a field made optional, the edited text being the old one',
    from: '| name | string | yes | no | Project name. |',
    to: '| name | string | no | no | Project name. |',
    old: true,
    rows: [['2.5 Project object', 'name', 'required', 'no', 'yes', ['projects.project.required']]],
  },
];

for (const edit of EDITS)
  test(`a new text of the document, ${edit.description}, changes the rows it names and touches their clauses`, () => {
    expect(SHIPPED.split(edit.from), `"${edit.from}" occurs once in the shipped document`).toHaveLength(2);
    const edited = SHIPPED.replace(edit.from, edit.to);
    expect(asRows(edit.old ? changesOf(edited, SHIPPED) : changesOf(SHIPPED, edited))).toEqual(edit.rows);
  });

test('a table renumbered is each of its rows removed and added again', () => {
  const changes = changesOf(SHIPPED, SHIPPED.replace('### 2.4 Projects list', '### 2.8 Projects list'));
  expect(changes.map((c) => [c.table, c.row, c.aspect])).toEqual([
    ['2.8 Projects list', 'version', 'added'],
    ['2.8 Projects list', 'projects', 'added'],
    ['2.4 Projects list', 'version', 'removed'],
    ['2.4 Projects list', 'projects', 'removed'],
  ]);
  // A table no contract holds touches no clause: its rows are still named.
  expect(changes.filter((c) => c.aspect === 'added').map((c) => c.clauses)).toEqual([[], []]);
});

test('a row change in a few words', () => {
  const [changed] = changesOf(SHIPPED, SHIPPED.replace('| featureCount | number | no | no |', '| featureCount | number | yes | no |'));
  expect(rowChangeText(changed)).toBe('2.5 Project object, featureCount: required no → yes');
  const [removed] = changesOf(SHIPPED, SHIPPED.replace('| email | string | no | Email of the user. |\n', ''));
  expect(rowChangeText(removed)).toBe('2.2 User object, email: removed (type string, required no, nullable no)');
});
