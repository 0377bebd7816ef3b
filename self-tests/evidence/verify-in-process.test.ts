import { expect, test } from '@playwright/test';
import { EXCHANGES, MANIFEST } from '../../harness/evidence/bundle.ts';
import { verifyBundle } from '../../readers/verify.ts';
import { verifyOutput } from '../../commands/verify-output.ts';
import { manifestValue, referenceBundle, resealed, withFile } from '../support/in-process-bundle.ts';

// verify judged as data: a bundle made in process, and copies of it changed one file at a time with their
// digests changed to match, as someone who knows how a bundle is made would change it.

const good = referenceBundle();
const CONFORMANCE = 'reports/conformance.json';

test('the reference bundle made in process verifies', () => {
  expect(verifyBundle(good)).toMatchObject({ differences: [], refused: undefined });
});

// What a person or a tool reads is covered too: a page, summary, badge, JUnit or CTRF changed to say otherwise than the report, or
// a request log that changes a status, is caught though every digest was changed to match.
for (const [name, how, change] of [
  ['reports/index.html', 'to say FAIL', (t: string) => t.replace(/>PASS</g, '>FAIL<')],
  ['reports/summary.md', 'to say FAIL', (t: string) => t.replace('## Conformance: PASS', '## Conformance: FAIL')],
  ['reports/badge.svg', 'to red', (t: string) => t.replace('#2e7d32', '#c62828')],
  ['reports/junit.xml', 'to say fail', (t: string) => t.replace('name="verdict" value="pass"', 'name="verdict" value="fail"')],
  [
    'reports/ctrf.json',
    'to pass an observation',
    (t: string) => t.replace(/"status": "skipped",(\s+)"rawStatus": "observed"/, '"status": "passed",$1"rawStatus": "observed"'),
  ],
  ['reports/requests.json', 'to another status', (t: string) => t.replace(/"status":401/, '"status":200')],
  // A request log that does not parse, or lists no requests, is a difference, never a crash.
  ['reports/requests.json', 'to text that is not JSON', (t: string) => t.slice(0, 40)],
  ['reports/requests.json', 'to numbers for requests', () => '{"requests": [1, 2]}'],
] as const) {
  test(`${name} changed ${how}, its digest changed to match, is not verified`, () => {
    const original = good.get(name)!.toString('utf8');
    expect(change(original)).not.toBe(original);
    const { differences } = verifyBundle(withFile(good, name, change(original)));
    expect(differences.some((d) => d.startsWith(`${name}: it does not`))).toBe(true);
  });
}

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

/** The bundle with its manifest naming another target; the manifest has no digest, so nothing else changes. */
const manifestNaming = (target: { name: string; baseUrl: string }) =>
  new Map([...good, [MANIFEST, Buffer.from(JSON.stringify({ ...manifestValue(good), target: { ...target, embedded: false } }))]]);

const hostile = manifestNaming({ name: '\u001b[2J\u001b]0;PWNED\u0007\u001b[31mEVIL', baseUrl: 'http://user:s3cr3tpassw0rd@evil\u001b[0m' });

test('a manifest naming another target than its report is not verified', () => {
  expect(verifyBundle(hostile).differences).toEqual([
    'target: the manifest says {"name":"\\u001b[2J\\u001b]0;PWNED\\u0007\\u001b[31mEVIL","baseUrl":"http://user:s3cr3tpassw0rd@evil\\u001b[0m","embedded":false}, ' +
      'the bundle\'s report says {"name":"reference","baseUrl":"http://reference.invalid","embedded":false}',
  ]);
});

test("verify prints a manifest's escape sequences as escapes, and never a URL's user and password", () => {
  const { lines, exitCode } = verifyOutput(verifyBundle(hostile), false);
  expect(exitCode).toBe(1);
  const printed = lines.join('\n');
  expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  expect(printed).not.toContain('s3cr3tpassw0rd');
  const { createdAt, suite } = manifestValue(good);
  expect(lines[0]).toBe(
    `Bundle of \\u001b[2J\\u001b]0;PWNED\\u0007\\u001b[31mEVIL (http://evil\\u001b[0m), made ${createdAt} by admin-api-conformance ${suite.version}, contracts ${suite.contractsHash}`,
  );
  expect(lines.at(-1)).toBe('NOT VERIFIED: 1 difference between the bundle and what this suite finds in it');
});

test('a report naming another target than its exchanges, the manifest resealed to match, is not verified', () => {
  const report = JSON.parse(good.get(CONFORMANCE)!.toString('utf8'));
  const renamed = resealed(withFile(good, CONFORMANCE, JSON.stringify({ ...report, target: { ...report.target, name: 'production' } })), (m) => ({
    ...m,
    target: { ...m.target, name: 'production' },
  }));
  const { differences } = verifyBundle(renamed);
  expect(differences[0]).toBe(
    'target: the bundle\'s report says {"name":"production","baseUrl":"http://reference.invalid","embedded":false}, its exchanges give {"name":"reference","baseUrl":"http://reference.invalid","embedded":false}',
  );
  // The page that still names the reference target says otherwise than the report that was changed.
  expect(differences).toContain("reports/index.html: it does not say what the bundle's conformance.json says");
});
