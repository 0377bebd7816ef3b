import { expect, test } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
import { signEnvelope } from '../../harness/evidence/dsse.ts';
import { attestationDifferences, type AttestedBundle } from '../../readers/attestation-check.ts';
import { verifyBundle } from '../../readers/verify.ts';
import { attestationStatement, IN_TOTO_PAYLOAD_TYPE, type Statement } from '../../reporters/attestation.ts';
import { suiteConfiguration } from '../../reporters/attestation-file.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { referenceBundle } from '../support/in-process-bundle.ts';

// verify's check of an attestation, judged as data: the reference bundle made in process, a statement of it
// signed with a key made here, and statements the same key signed that say something else, each of which must
// be named. Signatures the key did not make are refused before any of this (attestation.test.ts).

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const stated: ConformanceReport = JSON.parse(referenceBundle().get('reports/conformance.json')!.toString('utf8'));
const bundle: AttestedBundle = { stated, configuration: 'c'.repeat(64), subject: { sha256: 'b'.repeat(64) }, madeHere: true };
const good = attestationStatement(
  stated,
  { name: 'evidence.tar.gz', sha256: 'b'.repeat(64) },
  suiteConfiguration({ sha256: 'c'.repeat(64), claim: stated.claim.profiles }),
)!;

/** One line of an attestation file: the statement, signed with the key. */
const signed = (statement: unknown, payloadType = IN_TOTO_PAYLOAD_TYPE) =>
  JSON.stringify(signEnvelope(payloadType, Buffer.from(JSON.stringify(statement)), privateKey));
/** The good statement with its predicate changed by `edit`. */
const withPredicate = (edit: (p: Statement['predicate']) => Statement['predicate']): Statement => ({
  ...good,
  predicate: edit(structuredClone(good.predicate)),
});
const configured = (edit: (d: Statement['predicate']['configuration']) => Statement['predicate']['configuration']) =>
  withPredicate((p) => ({ ...p, configuration: edit(p.configuration) }));

test('the statement a run makes of the bundle, signed with the key, holds', () => {
  expect(stated.verdict).toBe('pass');
  expect(attestationDifferences(`${signed(good)}\n`, publicKey, bundle)).toEqual({ differences: [], result: 'PASSED' });
});

test('lines the key did not sign, or that are no envelope, are ignored beside one that holds, in whatever order', () => {
  const other = JSON.stringify(signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from('{}'), generateKeyPairSync('ed25519').privateKey));
  for (const text of [`not json\n${other}\n${signed(good)}\n`, `${signed(good)}\n\n${other}\nnot json`])
    expect(attestationDifferences(text, publicKey, bundle)).toEqual({ differences: [], result: 'PASSED' });
});

const first = stated.clauses.find((c) => c.status === 'passed')!.id;

/** Statements signed with the key that say what the bundle does not, each with the difference verify names. */
const WRONG: { title: string; text: () => string; difference: string | RegExp; of?: Partial<AttestedBundle> }[] = [
  { title: 'an empty file', text: () => '\n', difference: 'it holds no envelope' },
  { title: 'a line that is no JSON, after a blank one', text: () => '\n{"payload"', difference: 'line 2: it is not JSON' },
  { title: 'an envelope without signatures', text: () => '{"payload":"","payloadType":"x","signatures":[]}', difference: /^line 1: it is no DSSE envelope: / },
  {
    title: 'another payload type, signed as such',
    text: () => signed(good, 'application/json'),
    difference: 'line 1: its payload type is "application/json", not application/vnd.in-toto+json',
  },
  {
    title: 'a statement that is no JSON',
    text: () => JSON.stringify(signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from('PASSED'), privateKey)),
    difference: 'line 1: its statement is not JSON',
  },
  {
    title: 'a statement of another version',
    text: () => signed({ ...good, _type: 'https://in-toto.io/Statement/v0.1' }),
    difference: /^line 1: its statement is no in-toto Statement v1: /,
  },
  {
    title: 'another predicate',
    text: () => signed({ ...good, predicateType: 'https://slsa.dev/provenance/v1' }),
    difference: 'line 1: its predicate is "https://slsa.dev/provenance/v1", not a test result (https://in-toto.io/attestation/test-result/v0.1)',
  },
  {
    title: 'a statement about another bundle',
    text: () => signed({ ...good, subject: [{ ...good.subject[0], digest: { sha256: 'e'.repeat(64) } }] }),
    difference: `it is about SHA-256 ${'e'.repeat(64)}, the bundle's is ${'b'.repeat(64)}: the bundle was changed after it was signed, or the attestation is another bundle's`,
  },
  {
    title: 'another result',
    text: () => signed(withPredicate((p) => ({ ...p, result: 'WARNED' }))),
    difference: "it says WARNED, the bundle's report gives PASSED",
  },
  {
    title: 'a clause left out of the passed ones',
    text: () => signed(withPredicate((p) => ({ ...p, passedTests: p.passedTests.filter((id) => id !== first) }))),
    difference: `passedTests leaves out ${first}, which the bundle's report gives`,
  },
  {
    title: 'a failed clause the report does not have',
    text: () => signed(withPredicate((p) => ({ ...p, failedTests: [first] }))),
    difference: `failedTests names ${first}, which the bundle's report does not`,
  },
  {
    title: 'another digest of the catalogue',
    text: () => signed(configured((c) => c.map((d) => (d.name === 'contracts/clauses.yaml' ? { ...d, digest: { sha256: 'f'.repeat(64) } } : d)))),
    difference: /^configuration contracts\/clauses\.yaml: it says SHA-256 f{64}, the bundle's is [0-9a-f]{64}$/,
  },
  {
    title: 'no descriptor of the document',
    text: () => signed(configured((c) => c.filter((d) => d.name !== 'contracts/spec/admin-api.md'))),
    difference: 'configuration contracts/spec/admin-api.md: missing',
  },
  {
    title: 'a descriptor of a file this suite does not judge by',
    text: () => signed(configured((c) => [...c, { name: 'contracts/extra.yaml', digest: { sha256: 'f'.repeat(64) } }])),
    difference: 'configuration contracts/extra.yaml: named by the attestation, judged by nothing of this suite',
  },
  {
    title: 'another configuration',
    text: () => signed(good),
    of: { configuration: 'd'.repeat(64) },
    difference: `configuration configuration: it says SHA-256 ${'c'.repeat(64)}, the bundle's is ${'d'.repeat(64)}`,
  },
  {
    title: 'a narrower claim',
    text: () => signed(configured((c) => c.map((d) => (d.name === 'configuration' ? { ...d, annotations: { claim: ['core'] } } : d)))),
    difference: /^configuration configuration: it says \{"claim":\["core"\]\}, the bundle's report \{"claim":\["core","projects-data",/,
  },
  {
    title: 'another target',
    text: () =>
      signed({
        ...good,
        subject: [{ ...good.subject[0], annotations: { target: { name: 'production', baseUrl: 'https://prod.example.com', embedded: false } } }],
      }),
    difference: /^its subject says \{"target":\{"name":"production",.*\}\}, the bundle's report \{"target":\{"name":"reference",/,
  },
  {
    title: 'a live run of a bundle that is a replay',
    text: () => signed(good),
    of: { stated: { ...stated, replay: { bundle: 'theirs/evidence.tar.gz' } } },
    difference: /^its subject says \{"target":\{[^}]*\}\}, the bundle's report \{"target":\{[^}]*\},"replayOf":"theirs\/evidence\.tar\.gz"\}$/,
  },
  {
    title: 'a pass of a bundle whose report has no verdict',
    text: () => signed(good),
    of: { stated: { ...stated, verdict: 'partial' } },
    difference: "it says PASSED, and the bundle's report has no verdict (PARTIAL), of which none is made",
  },
];

for (const { title, text, difference, of } of WRONG) {
  test(`an attestation is refused: ${title}`, () => {
    const checked = attestationDifferences(text(), publicKey, { ...bundle, ...of });
    expect(checked.result).toBeUndefined();
    expect(checked.differences).toEqual([typeof difference === 'string' ? difference : expect.stringMatching(difference)]);
  });
}

test("a bundle another suite made, judged anyway, is held to its own document and configuration, not to this suite's contracts", () => {
  const otherContracts = signed(configured((c) => c.map((d) => (d.name === 'contracts/clauses.yaml' ? { ...d, digest: { sha256: 'f'.repeat(64) } } : d))));
  expect(attestationDifferences(otherContracts, publicKey, { ...bundle, madeHere: false }).differences).toEqual([]);
  expect(attestationDifferences(signed(good), publicKey, { ...bundle, madeHere: false, configuration: 'd'.repeat(64) }).differences).toEqual([
    `configuration configuration: it says SHA-256 ${'c'.repeat(64)}, the bundle's is ${'d'.repeat(64)}`,
  ]);
  const otherDocument = { ...stated, document: { ...stated.document, sha256: 'd'.repeat(64) } };
  expect(attestationDifferences(signed(good), publicKey, { ...bundle, madeHere: false, stated: otherDocument }).differences).toEqual([
    `configuration contracts/spec/admin-api.md: it says SHA-256 ${stated.document.sha256}, the bundle's is ${'d'.repeat(64)}`,
  ]);
});

test('verify given a key and no attestation names it missing: a claim stripped of its signature is no claim', () => {
  const result = verifyBundle(referenceBundle(), {
    attestation: { file: '/bundles/evidence.tar.gz.intoto.jsonl', key: publicKey, subject: { sha256: 'b'.repeat(64) } },
  });
  expect(result.differences).toEqual(['attestation: /bundles/evidence.tar.gz.intoto.jsonl is missing, so no signed claim holds for this bundle']);
});
