import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// CI scripts branch on the exit codes: they are written in one table, docs/outcomes.md, which names every code the
// command exits with (its EXIT constant), and every other page links to it rather than copy it and go stale.

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');

/** The codes of the command's EXIT constant (bin/admin-api-conformance.js), read as its text states them. */
function commandCodes(): number[] {
  const constant = /const EXIT = \{([^}]*)\}/.exec(read('bin/admin-api-conformance.js'))?.[1];
  if (constant === undefined) throw new Error('bin/admin-api-conformance.js has no EXIT constant');
  return [...constant.matchAll(/:\s*(\d+)/g)].map((m) => Number(m[1]));
}

/** The codes in the first column of a page's exit-code table: rows such as "| 0 | PASS | …" or "| 129, 130, 143 | …". */
function tableCodes(page: string): number[] {
  return page
    .split('\n')
    .flatMap((line) => /^\|\s*(\d+(?:\s*,\s*\d+)*)\s*\|/.exec(line)?.[1].split(',') ?? [])
    .map(Number);
}

/** The Markdown pages a user reads: the README, CONTRIBUTING.md, CHANGELOG.md and every page below docs/. */
function pages(): string[] {
  const below = (dir: string): string[] =>
    readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? below(path.join(dir, entry.name)) : entry.name.endsWith('.md') ? [path.join(dir, entry.name)] : [],
    );
  return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...below('docs')];
}

const EXIT_CODE_HEADER = /^\|\s*(?:exit\s+)?codes?\s*\|/i;

test("docs/outcomes.md's table of exit codes names every code the command exits with, and no other", () => {
  const [, section = ''] = read('docs/outcomes.md').split(/^## Exit codes$/m);
  expect(new Set(tableCodes(section.split(/^## /m)[0]))).toEqual(new Set(commandCodes()));
});

test('no other page copies the table of exit codes: the README links to it', () => {
  const copies = pages().filter(
    (file) =>
      file !== path.join('docs', 'outcomes.md') &&
      read(file)
        .split('\n')
        .some((line) => EXIT_CODE_HEADER.test(line)),
  );
  expect(copies, 'pages with a table of exit codes of their own').toEqual([]);
  expect(read('README.md')).toContain('(docs/outcomes.md#exit-codes)');
});
