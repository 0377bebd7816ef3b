import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import { verifyBundle } from '../../readers/verify.ts';
import { verifyOutput } from '../../commands/verify-output.ts';
import { documentText } from '../../harness/contracts/document.ts';
import { manifestValue, referenceBundle, resealed, withFile } from '../support/in-process-bundle.ts';

// Issue 31, point 3: a bundle carries the text of the document its run was judged against, digested like every
// file, so that diff can compare two runs' texts row by row. verify holds the copy to the document the run names;
// a bundle made before bundles carried it verifies all the same, and says what it lacks.

const good = referenceBundle();
const COPY = 'document/admin-api.md';
const NO_COPY_LINE =
  '  the bundle carries no copy of the document its run was judged against (bundles made before they did): diff cannot name the rows a new text changed';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The bundle without its copy of the document, resealed: as a bundle made before bundles carried it. */
const withoutCopy = (files: Map<string, Buffer>) => resealed(new Map([...files].filter(([name]) => name !== COPY)));

test('the bundle carries the text the run was judged against, named in the manifest by its digest', () => {
  expect(good.get(COPY)?.toString('utf8')).toBe(documentText());
  expect(manifestValue(good).files[COPY]).toBe(manifestValue(good).document.sha256);
  const result = verifyBundle(good);
  expect(result).toMatchObject({ differences: [], document: COPY });
  expect(verifyOutput(result, false).lines).not.toContain(NO_COPY_LINE);
});

test('a copy of the document changed, the manifest resealed to match, is not verified: it is not the text the run names', () => {
  const edited = documentText().replace('| featureCount | number | no | no |', '| featureCount | number | yes | no |');
  const result = verifyBundle(withFile(good, COPY, edited));
  expect(result.differences).toEqual([
    `${COPY}: its SHA-256 is ${sha256(edited)}, the run was judged against the document ${manifestValue(good).document.sha256}`,
  ]);
  expect(verifyOutput(result, false).exitCode).toBe(1);
});

test('a second copy of the document is a difference, whichever matches', () => {
  const result = verifyBundle(withFile(good, 'document/other.md', documentText()));
  expect(result.differences).toEqual(['document/: 2 files, where a bundle carries one copy of the document']);
});

test('a copy of another text is a difference in a bundle another suite made too, where nothing is judged again', () => {
  const other = resealed(withFile(good, COPY, 'another text'), (m) => ({ ...m, document: { ...m.document, sha256: 'e'.repeat(64) } }));
  const result = verifyBundle(other);
  expect(result.refused).toMatch(/^the bundle was made by admin-api-conformance .* and the document eeeeeeeeeeeeeeee…/);
  expect(result.differences).toEqual([`${COPY}: its SHA-256 is ${sha256('another text')}, the run was judged against the document ${'e'.repeat(64)}`]);
});

test('a bundle without a copy of the document verifies, and says diff cannot name the rows a new text changed', () => {
  const result = verifyBundle(withoutCopy(good));
  expect(result).toMatchObject({ differences: [], document: undefined });
  const { lines, exitCode } = verifyOutput(result, false);
  expect(exitCode).toBe(0);
  expect(lines).toContain(NO_COPY_LINE);
  expect(lines.at(-1)).toMatch(/^VERIFIED: /);
});
