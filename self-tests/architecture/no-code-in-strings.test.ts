import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The suite runs only its own module files: no code held in a string (a thread given source text, a function
// made from text, an evaluated script), which no type check, lint or build sees.

const FOLDERS = ['harness', 'checks', 'reporters', 'commands', 'run', 'tests', 'bin', 'scripts', 'reference-server'];
const CODE_IN_A_STRING = /eval:\s*true|new Function\b|\beval\(|runIn(?:New|This)?Context|new (?:vm\.)?Script\(/g;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return filesUnder(file);
    return /\.(ts|js)$/.test(name) ? [file] : [];
  });

test('no module of the suite runs code held in a string', () => {
  const found = FOLDERS.flatMap((folder) => filesUnder(path.join(PROJECT_ROOT, folder))).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.match(CODE_IN_A_STRING) ?? []).map((code) => `${path.relative(PROJECT_ROOT, file)}:${i + 1}: ${code}`)),
  );
  expect(found).toEqual([]);
});
