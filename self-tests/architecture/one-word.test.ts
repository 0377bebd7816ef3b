import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// One word for one idea: an outcome that could not be judged is "errored", in identifiers and in words. The
// only other spelling left is conformance.json's field `unevaluable` (its schema's name for the answers an
// errored clause could not judge), read and written as that field: `x.unevaluable`, `unevaluable:`.

const FOLDERS = ['harness', 'checks', 'reporters', 'commands', 'run', 'tests', 'bin', 'scripts', 'reference-server', 'self-tests', 'bench', 'action'];
const FILES = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'];
const SKIPPED = new Set(['node_modules', 'dist', 'fixtures', 'test-results']);
const THIS_FILE = path.relative(PROJECT_ROOT, __filename);

/** Other words for "errored", as identifiers or prose. */
const OTHER_WORDS = /unevaluable|evaluable|cannot ?evaluate|could not evaluate|not evaluated|unjudge?able|not judgeable/gi;
/** conformance.json's field, where it is that field. */
const THE_FIELD = /\.unevaluable\b|\bunevaluable:|"unevaluable"/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (SKIPPED.has(name)) return [];
    if (statSync(file).isDirectory()) return filesUnder(file);
    return /\.(ts|js|json|md|ya?ml|sh)$/.test(name) ? [file] : [];
  });
}

test('an outcome that could not be judged is "errored" everywhere; only conformance.json\'s field keeps its name', () => {
  const files = [...FOLDERS.flatMap((folder) => filesUnder(path.join(PROJECT_ROOT, folder))), ...FILES.map((f) => path.join(PROJECT_ROOT, f))];
  const found = files
    .filter((file) => path.relative(PROJECT_ROOT, file) !== THIS_FILE)
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.replace(THE_FIELD, '').match(OTHER_WORDS) ?? []).map((word) => `${path.relative(PROJECT_ROOT, file)}:${i + 1}: ${word}`)),
    );
  expect(found).toEqual([]);
});
