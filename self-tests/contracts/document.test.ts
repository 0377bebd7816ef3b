import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { specDocument, SPEC_DIR } from '../../harness/contracts/document.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// Issue 13, point 2: reports name the document the contracts were derived from, by the hash of its exact
// text; the suite ships that text, and this checks it is still the text of the document it was read from.

const COPY = path.join(SPEC_DIR, 'admin-api.md');

test('the document is named by its title and the SHA-256 of the copy the suite ships', () => {
  const document = specDocument();
  expect(document.title).toBe('Admin API: public signup token retrieval and project listing');
  expect(document.sha256).toBe(createHash('sha256').update(readFileSync(COPY)).digest('hex'));
  expect(document.readFrom).toBe('../shared/spec/admin-api.md');
});

test('the copy in contracts/spec is the exact text of the document it was read from, where that is at hand', () => {
  const source = path.resolve(PROJECT_ROOT, specDocument().readFrom);
  test.skip(!existsSync(source), `${source} is not at hand (an installed package, a clone without it)`);
  expect(readFileSync(COPY).equals(readFileSync(source)), `contracts/spec/admin-api.md differs from ${source}: copy it again and review the contracts`).toBe(
    true,
  );
});
