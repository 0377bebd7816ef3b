import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { documentFile, documentText } from '../../harness/contracts/document.ts';
import { commandProcess } from '../support/command-line.ts';
import { runCommand } from '../support/run-suite.ts';

// `admin-api-conformance document [FILE]` as whoever updates the document runs it: the shipped copy agrees,
// an edited copy names its rows and the clauses they touch (exit 1), and what is not the document is one line
// (exit 2). Which rows differ for which edit is tested as data (self-tests/contracts/document-rows.test.ts).

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-document-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

function copyOf(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

test('the shipped copy of the document agrees with the contracts: one line, exit code 0', async () => {
  const run = await runCommand(['document']);
  expect([run.exitCode, run.stderr]).toEqual([0, '']);
  expect(run.stdout).toBe(`${documentFile()}: its 60 rows in 8 tables agree with the contracts\n`);
});

test('an edited copy names each row that differs and the clauses it touches, exit code 1', async () => {
  const edited = documentText()
    .replace('| name | string | yes | no | Token name', '| name | string | yes | yes | Token name')
    .replace('| email | string | no | Email of the user. |\n', '');
  const file = copyOf('edited.md', edited);
  const run = await runCommand(['document', file]);
  expect(run.exitCode, run.stderr).toBe(1);
  expect(run.stdout.split('\n')).toEqual([
    `${file}: 2 difference(s) from the contracts, row by row:`,
    '  2.1 Public signup token, name: nullable: the document says yes; public-signup-token.schema.json says no; touches signup-token.token.nullability',
    '  2.2 User object, email: in the contracts, not in the document: the document says no row; user.schema.json says type string, required no, nullable no; touches signup-token.user.types, signup-token.user.nullability',
    '',
  ]);
});

// The command runs document in its own process and exits once the output is written: a run of the command, in a
// child process whose output is a pipe.
test('a long list of differences is written whole through a pipe before the command exits', async () => {
  const extra = Array.from({ length: 3000 }, (_, i) => `| added${i} | string | no | no | A field the contracts lack. |`).join('\n');
  const file = copyOf('long.md', documentText().replace('| id | string | yes | no | Project id. |', `| id | string | yes | no | Project id. |\n${extra}`));
  const run = await commandProcess(['document', file]);
  expect(run.exitCode).toBe(1);
  const lines = run.stdout.trimEnd().split('\n');
  expect([lines.length, lines[0], lines.at(-1)]).toEqual([
    3001,
    `${file}: 3000 difference(s) from the contracts, row by row:`,
    expect.stringMatching(/^ {2}2\.5 Project object, added2999: a row in the document that the contracts lack: /),
  ]);
});

test('a file that cannot be read, or is not the document, is one line, exit code 2; what it holds is shown, never obeyed', async () => {
  const escaped = copyOf('escaped.md', documentText().replace('| secret | string |', '| secr\u001b[2Jet | string |'));
  const cases: [string[], string][] = [
    [['document', '/nonexistent/admin-api.md'], 'admin-api-conformance document: /nonexistent/admin-api.md cannot be read (ENOENT)'],
    [['document', dir], `admin-api-conformance document: ${dir} cannot be read (EISDIR)`],
    [
      ['document', copyOf('notes.md', '# Notes\n\n| a | b |\n|---|---|\n')],
      `admin-api-conformance document: ${dir}/notes.md is not the document: it has no section 2 with tables of fields`,
    ],
    [
      ['document', copyOf('large.md', `${documentText()}\n${' '.repeat(1024 * 1024)}`)],
      `admin-api-conformance document: ${dir}/large.md is not the document: it is larger than 1 MiB`,
    ],
    [
      ['document', 'one.md', 'two.md'],
      'admin-api-conformance document: usage: admin-api-conformance document [<the document, Markdown; default the copy the suite ships>]',
    ],
  ];
  for (const [args, line] of cases) {
    const run = await runCommand(args);
    expect([run.exitCode, run.stdout, run.stderr]).toEqual([2, '', `${line}\n`]);
  }
  const shown = await runCommand(['document', escaped]);
  expect(shown.exitCode).toBe(1);
  expect(shown.stdout).toContain('2.1 Public signup token, secr\\u001b[2Jet: a row in the document that the contracts lack:');
  expect(shown.stdout).not.toContain('\u001b');
});
