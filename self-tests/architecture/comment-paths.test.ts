import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// A comment that names a file of the suite names one that exists: a path from the repository's root (or from
// the comment's own folder) to a file or folder, so that a reader who follows it finds what it says.

const FOLDERS = [
  'harness',
  'checks',
  'reporters',
  'commands',
  'run',
  'tests',
  'bin',
  'scripts',
  'reference-server',
  'self-tests',
  'bench',
  'action',
  'targets',
];
const TOP = ['playwright.config.ts', 'action.yml'];
const SKIPPED = new Set(['node_modules', 'dist', 'fixtures', 'test-results']);

/** A path into one of the suite's folders; a placeholder (`<version>`, `*`, `{token}`) is no file's name. */
const SUITE_PATH = new RegExp(`(?<![\\w./-])(?:${[...FOLDERS, 'contracts', 'docs'].join('|')})(?:/[\\w.-]+)+(?![\\w.<*{-])`, 'g');
/** The text of a comment: a whole-line comment, or one after code (" // "). */
const COMMENT = /^\s*(?:\/\/|\/\*+|\*|#)(.*)$|\s\/\/\s(.*)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (SKIPPED.has(name)) return [];
    if (statSync(file).isDirectory()) return filesUnder(file);
    return /\.(ts|js|sh|ya?ml)$/.test(name) ? [file] : [];
  });
}

function stalePaths(): { file: string; line: number; path: string }[] {
  const files = [...FOLDERS.flatMap((folder) => filesUnder(path.join(PROJECT_ROOT, folder))), ...TOP.map((f) => path.join(PROJECT_ROOT, f))];
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((text, i) => {
        const comment = text.match(COMMENT);
        const named = (comment?.[1] ?? comment?.[2] ?? '').match(SUITE_PATH) ?? [];
        return named
          .map((p) => p.replace(/[.,;:]+$/, ''))
          .filter((p) => ![PROJECT_ROOT, path.dirname(file)].some((from) => existsSync(path.join(from, p))))
          .map((p) => ({ file: path.relative(PROJECT_ROOT, file), line: i + 1, path: p }));
      }),
  );
}

test('every path a comment names is a file or folder of the suite', () => {
  expect(stalePaths()).toEqual([]);
});
