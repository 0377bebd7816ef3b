import { expect, test } from '@playwright/test';
import { EXCHANGES } from '../../harness/bundle.ts';
import { verifyBundle } from '../../reporters/verify.ts';
import { referenceBundle, withFile } from '../support/in-process-bundle.ts';

// verify judged as data: a bundle made in process, and copies of it changed one file at a time with their
// digests changed to match, as someone who knows how a bundle is made would change it.

const good = referenceBundle();
const CONFORMANCE = 'reports/conformance.json';

test('the reference bundle made in process verifies', () => {
  expect(verifyBundle(good)).toMatchObject({ differences: [], refused: undefined });
});

const NOT_THEIR_SCHEMA: { title: string; name: string; bytes: string; difference: string }[] = [
  {
    title: 'a report that is {}',
    name: CONFORMANCE,
    bytes: '{}',
    difference: `${CONFORMANCE} in the bundle does not match its schema: the top level lacks "reportVersion"`,
  },
  { title: 'a report that is not JSON', name: CONFORMANCE, bytes: '{"clauses":', difference: `${CONFORMANCE} in the bundle is not JSON` },
  {
    title: 'a report whose clauses are not a list',
    name: CONFORMANCE,
    bytes: JSON.stringify({ ...JSON.parse(good.get(CONFORMANCE)!.toString('utf8')), clauses: {} }),
    difference: `${CONFORMANCE} in the bundle does not match its schema: clauses must be of type array`,
  },
  {
    title: 'exchanges that are a list',
    name: EXCHANGES,
    bytes: '[]',
    difference: `${EXCHANGES} in the bundle does not match its schema: the top level must be of type object`,
  },
];

for (const { title, name, bytes, difference } of NOT_THEIR_SCHEMA) {
  test(`a bundle with ${title}, its digest matching, is not verified: the file does not match its schema`, () => {
    const result = verifyBundle(withFile(good, name, bytes));
    expect(result.differences).toHaveLength(1);
    expect(result.differences[0]).toMatch(new RegExp(`^${difference.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(result.rejudged).toBeUndefined();
  });
}
