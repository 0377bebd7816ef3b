import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SAYS_KEYWORD } from '../../harness/files/schema-words.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// A mistake is said in words (harness/files/schema-words.ts): every pattern of a file a person writes, or that a
// command reads back from a run, has its words beside it, so that no line quotes a regular expression.
const READ_FROM_PEOPLE_AND_RUNS = [
  'deviations.schema.json',
  'fleet-file.schema.json',
  'target-file.schema.json',
  'bundle-manifest.schema.json',
  'shard-matrix.schema.json',
  'run-facts.schema.json',
];

/** The places in a schema that hold a pattern without words beside it. */
function wordless(node: unknown, at: string): string[] {
  if (node === null || typeof node !== 'object') return [];
  const own = 'pattern' in node && typeof (node as { pattern: unknown }).pattern === 'string' && !(SAYS_KEYWORD in node) ? [at] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => wordless(value, `${at}/${key}`))];
}

for (const name of READ_FROM_PEOPLE_AND_RUNS)
  test(`every pattern of ${name} says in words what it wants`, () => {
    const schema: unknown = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'harness', 'files', 'schemas', name), 'utf8'));
    expect(wordless(schema, '')).toEqual([]);
  });
