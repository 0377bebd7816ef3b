import { expect, test } from '@playwright/test';
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Clause } from '../../harness/contracts/catalogue.ts';
import { keyIdOf, openEnvelope, pae, signEnvelope, type Envelope } from '../../harness/evidence/dsse.ts';
import { check } from '../../harness/files/checked.ts';
import { attestationStatement, IN_TOTO_PAYLOAD_TYPE, testResultOf, type Statement, type TestResult } from '../../reporters/attestation.ts';
import { suiteConfiguration } from '../../reporters/attestation-file.ts';
import { buildConformanceReport, type ClauseRun, type ConformanceReport, type Verdict } from '../../reporters/conformance-result.ts';
import { runMeta } from '../support/run-meta.ts';

// Issue 31, point 5: a signed claim. The statement, DSSE's pre-authentication encoding, signing and opening an
// envelope, each judged as data; the whole run and verify as a black box are in signed-run.test.ts.

// --- DSSE: the encoding and its published test vectors ------------------------------------------------------

/**
 * Vectors of DSSE's own (secure-systems-lab/dsse: protocol.md, and testvectors/vectors.json, whose keys are
 * RFC 8032's Ed25519 test keys: only their public halves are needed to check a signature). Each with the
 * PAE the signatures cover, in hex, and whether a signature by key A verifies.
 */
const VECTORS: { id: string; payloadType: string; signedType?: string; payload: string; pae: string; sig?: string; signed?: boolean }[] = [
  {
    id: 'protocol.md',
    payloadType: 'http://example.com/HelloWorld',
    payload: 'aGVsbG8gd29ybGQ=',
    pae: Buffer.from('DSSEv1 29 http://example.com/HelloWorld 11 hello world').toString('hex'),
  },
  {
    id: 'single-signature',
    payloadType: 'application/vnd.in-toto+json',
    payload: 'eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ==',
    pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
    sig: '2WAfaHm5jluo0w+0rk8uVkluELJYWjSmU9x7EUzx+AyteDGJ4/nqyJXfmAUVFIAoQafWm7AxBZNw5M9ixNHiCA==',
    signed: true,
  },
  {
    id: 'url-safe-base64',
    payloadType: 'application/vnd.in-toto+json',
    payload: '-_-_Pj8=',
    pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203520fbffbf3e3f',
    sig: 'P-_KHICeR7tI6S_YyejJTRtrXhcQyQ2LYPaL8h90KjC9qN8HU_svOQ6TuDOT1HIrsGW886DbWNWcCmX5twLrAw==',
    signed: true,
  },
  {
    id: 'payload-type-swapped',
    payloadType: 'application/vnd.example.other+json',
    payload: 'eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ==',
    // The PAE its signature covers is that of the in-toto type it was signed as, not of the type the envelope claims.
    signedType: 'application/vnd.in-toto+json',
    pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
    sig: '2WAfaHm5jluo0w+0rk8uVkluELJYWjSmU9x7EUzx+AyteDGJ4/nqyJXfmAUVFIAoQafWm7AxBZNw5M9ixNHiCA==',
    signed: false,
  },
  {
    id: 'non-ascii-payload-type',
    payloadType: 'application/vnd.exämple+json',
    payload: 'eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ==',
    pae: '445353457631203239206170706c69636174696f6e2f766e642e6578c3a46d706c652b6a736f6e203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
    sig: 'xmSk/ug66ysT7ayhkCIjhAq42zgZXSsEWuzUaNL7w2eGAdF/NU6/fRXPtmfN+5DNSAs5/i2lUnHjbbjPsu0tAw==',
    signed: true,
  },
  {
    id: 'empty-payload',
    payloadType: 'application/vnd.in-toto+json',
    payload: '',
    pae: '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203020',
    sig: 'gSggCAaTLTYyRH6FIDBem6meyIynsYy8RTHVzwx9tnTb7Bg/1jMWnuVgI/gffqmbsC2VX5/jHfkkDqsj7CDbDg==',
    signed: true,
  },
  {
    id: 'empty-payload-type',
    payloadType: '',
    payload: 'eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ==',
    pae: '445353457631203020203433207b225f74797065223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
    sig: 'iC3q/+3Rm0+lpAJRueDmDh15PnwCfxKmS0NAfKsbv+zgulXQC/WM9trc+j1XEqlwDIg/vf/uNfebeD6sxInrDg==',
    signed: true,
  },
];

/** RFC 8032, section 7.1, TEST 1's public key: key A of the vectors. */
const KEY_A = createPublicKey({
  key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex').toString('base64url') },
  format: 'jwk',
});

for (const v of VECTORS) {
  test(`the PAE of DSSE's vector ${v.id} is the one it publishes`, () => {
    const body = Buffer.from(v.payload.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // A length in characters rather than bytes gets the non-ASCII vector wrong (28, not 29).
    expect(pae(v.signedType ?? v.payloadType, body).toString('hex')).toBe(v.pae);
  });
}

// The swapped vector claims a type its signature was not made over: it must not verify.
for (const v of VECTORS.filter((v) => v.sig !== undefined)) {
  test(`DSSE's vector ${v.id} ${v.signed ? 'opens' : 'is refused'} with key A`, () => {
    const opened = openEnvelope({ payload: v.payload, payloadType: v.payloadType, signatures: [{ keyid: 'A', sig: v.sig! }] }, KEY_A);
    if (v.signed) expect(opened).toHaveProperty('body');
    else expect(opened).toEqual({ problem: expect.stringContaining('it is signed by another key (keyid A)') });
  });
}

// --- Signing and opening with keys made here -----------------------------------------------------------------

const KEYS: [kind: string, make: () => { privateKey: KeyObject; publicKey: KeyObject }][] = [
  ['Ed25519', () => generateKeyPairSync('ed25519')],
  ['ECDSA P-256', () => generateKeyPairSync('ec', { namedCurve: 'P-256' })],
];
const BODY = Buffer.from('{"_type":"https://in-toto.io/Statement/v1"}');

for (const [kind, make] of KEYS) {
  test(`an envelope signed with an ${kind} key opens with its public key, and with no other`, () => {
    const { privateKey, publicKey } = make();
    const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, BODY, privateKey);
    expect(envelope).toEqual({
      payloadType: IN_TOTO_PAYLOAD_TYPE,
      payload: BODY.toString('base64'),
      signatures: [{ keyid: keyIdOf(publicKey), sig: expect.any(String) }],
    });
    expect(openEnvelope(envelope, publicKey)).toEqual({ body: BODY });
    const other = make().publicKey;
    expect(openEnvelope(envelope, other)).toEqual({
      problem: `it is signed by another key (keyid ${keyIdOf(publicKey).slice(0, 16)}), not the given one (keyid ${keyIdOf(other).slice(0, 16)})`,
    });
  });

  test(`an envelope of an ${kind} key is refused once a byte of its payload, its type or its signature changes`, () => {
    const { privateKey, publicKey } = make();
    const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, BODY, privateKey);
    const changed = Buffer.from(BODY.toString().replace('v1', 'v2'));
    const another = signEnvelope(IN_TOTO_PAYLOAD_TYPE, changed, privateKey).signatures;
    const refused = { problem: expect.stringMatching(/^no signature verifies with the given key/) };
    expect(openEnvelope({ ...envelope, payload: changed.toString('base64') }, publicKey)).toEqual(refused);
    expect(openEnvelope({ ...envelope, payloadType: 'application/vnd.in-toto+JSON' }, publicKey)).toEqual(refused);
    expect(openEnvelope({ ...envelope, signatures: another }, publicKey)).toEqual(refused);
    expect(openEnvelope({ ...envelope, signatures: [{ sig: '' }] }, publicKey)).toEqual(refused);
  });
}

test('ECDSA signatures are DER, as most verifiers of DSSE read them', () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const sig = Buffer.from(signEnvelope(IN_TOTO_PAYLOAD_TYPE, BODY, privateKey).signatures[0].sig, 'base64');
  expect(sig[0]).toBe(0x30); // a DER SEQUENCE of r and s, not their 64 bytes side by side
  expect(sig[1]).toBe(sig.length - 2);
});

test('a payload that is no base64 is refused, not read past the characters Buffer.from would skip', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, BODY, privateKey);
  const [a, b] = [envelope.payload.slice(0, 8), envelope.payload.slice(8)];
  for (const payload of [`${a}\n${b}`, `${a}.${b}`, `${envelope.payload}=`, `${envelope.payload.slice(0, 4)}A`])
    expect(openEnvelope({ ...envelope, payload }, publicKey), payload).toEqual({ problem: 'its payload is not base64' });
  // Unpadded, and in the URL-safe alphabet, it is the same payload: DSSE allows both.
  expect(openEnvelope({ ...envelope, payload: BODY.toString('base64url') }, publicKey)).toEqual({ body: BODY });
});

// --- The statement as a function of the report --------------------------------------------------------------

const catalogue: Clause[] = [
  { id: 'a.must', section: '2.1', level: 'MUST', title: 'a', profile: 'core' },
  { id: 'b.must', section: '2.2', level: 'MUST', title: 'b', profile: 'core' },
  { id: 'c.must', section: '3', level: 'MUST', title: 'c', profile: 'core' },
  { id: 'd.info', section: '9', level: 'INFO', title: 'd' },
];
const PROFILES = [{ name: 'core', title: 'core', needs: 'the admin token' }];
const run = (clause: string, outcome: ClauseRun['outcome']): ClauseRun => ({ clause, outcome });
const reportOf = (outcomes: Record<string, ClauseRun['outcome']>, overrides: Parameters<typeof runMeta>[0] = {}) =>
  buildConformanceReport(
    catalogue,
    Object.entries(outcomes).map(([id, outcome]) => run(id, outcome)),
    runMeta({ profiles: PROFILES, ...overrides }),
  );
const DEVIATION = { clause: 'b.must', target: 't', reason: 'a known bug', expires: '2099-01-01' };

/** Reports of each verdict, with the test result each must give: only a pass or a fail gives one. */
const RESULTS: { title: string; report: ConformanceReport; verdict: Verdict; tested?: TestResult }[] = [
  {
    title: 'a pass',
    report: reportOf({ 'a.must': 'passed', 'b.must': 'passed', 'c.must': 'passed', 'd.info': 'passed' }),
    verdict: 'pass',
    tested: { result: 'PASSED', passedTests: ['a.must', 'b.must', 'c.must'], warnedTests: [], failedTests: [] },
  },
  {
    title: 'a pass that rests on a known deviation (WARNED, never PASSED)',
    report: reportOf({ 'a.must': 'passed', 'b.must': 'failed', 'c.must': 'passed' }, { deviations: [DEVIATION] }),
    verdict: 'pass',
    tested: { result: 'WARNED', passedTests: ['a.must', 'c.must'], warnedTests: ['b.must'], failedTests: [] },
  },
  {
    title: 'a fail beside an errored clause, which is in no list',
    report: reportOf({ 'a.must': 'failed', 'b.must': 'errored', 'c.must': 'passed' }),
    verdict: 'fail',
    tested: { result: 'FAILED', passedTests: ['c.must'], warnedTests: [], failedTests: ['a.must'] },
  },
  {
    title: 'a fail beside a deviation that expired',
    report: reportOf({ 'a.must': 'passed', 'b.must': 'failed', 'c.must': 'passed' }, { deviations: [{ ...DEVIATION, expires: '2026-01-01' }] }),
    verdict: 'fail',
    tested: { result: 'FAILED', passedTests: ['a.must', 'c.must'], warnedTests: [], failedTests: ['b.must'] },
  },
  { title: 'an errored run', report: reportOf({ 'a.must': 'passed', 'b.must': 'errored', 'c.must': 'passed' }), verdict: 'error' },
  {
    title: 'a partial run (a clause not exercised)',
    report: reportOf({ 'a.must': 'passed', 'b.must': 'not-exercised', 'c.must': 'passed' }),
    verdict: 'partial',
  },
  { title: 'a partial run (a clause not judged, a --grep)', report: reportOf({ 'a.must': 'passed', 'b.must': 'passed' }), verdict: 'partial' },
  {
    title: 'an interrupted run',
    report: reportOf({ 'a.must': 'passed', 'b.must': 'passed', 'c.must': 'passed' }, { runStatus: 'interrupted' }),
    verdict: 'incomplete',
  },
];

for (const { title, report, verdict, tested } of RESULTS) {
  test(`the test result of ${title}: ${tested?.result ?? 'none, and no statement'}`, () => {
    expect(report.verdict).toBe(verdict);
    expect(testResultOf(report)).toEqual(tested);
    const statement = attestationStatement(report, { name: 'evidence.tar.gz', sha256: 'a'.repeat(64) }, []);
    if (tested === undefined) expect(statement).toBeUndefined();
    else expect(statement?.predicate).toMatchObject({ ...tested });
  });
}

const SCHEMA = new URL('../../reporters/attestation.schema.json', pathToFileURL(__filename));

test('a statement is an in-toto Statement v1 of the test-result predicate, about the bundle, naming what judged it', () => {
  const report = RESULTS[0].report;
  const configuration = suiteConfiguration({ sha256: 'c'.repeat(64), claim: ['core'] });
  const statement = attestationStatement(report, { name: 'evidence.tar.gz', sha256: 'a'.repeat(64) }, configuration, 'https://ci.example.com/runs/7');
  expect(statement).toEqual({
    _type: 'https://in-toto.io/Statement/v1',
    subject: [
      { name: 'evidence.tar.gz', digest: { sha256: 'a'.repeat(64) }, annotations: { target: { name: 't', baseUrl: 'http://t.invalid', embedded: false } } },
    ],
    predicateType: 'https://in-toto.io/attestation/test-result/v0.1',
    predicate: {
      result: 'PASSED',
      configuration,
      url: 'https://ci.example.com/runs/7',
      passedTests: ['a.must', 'b.must', 'c.must'],
      warnedTests: [],
      failedTests: [],
    },
  });
  expect(check<Statement>(new URL(`${SCHEMA.href}#/$defs/statement`), statement)).toMatchObject({ ok: true });
  // The catalogue, the profiles, every schema and the document, each by its digest, then the configuration.
  const names = configuration.map((d) => d.name);
  expect(names).toEqual(
    expect.arrayContaining(['contracts/clauses.yaml', 'contracts/profiles.yaml', 'contracts/user.schema.json', 'contracts/spec/admin-api.md']),
  );
  expect(names.at(-1)).toBe('configuration');
  expect(configuration.every((d) => /^[0-9a-f]{64}$/.test(d.digest.sha256))).toBe(true);
  expect(configuration.at(-1)).toEqual({ name: 'configuration', digest: { sha256: 'c'.repeat(64) }, annotations: { claim: ['core'] } });
  expect(attestationStatement(report, { name: 'evidence.tar.gz', sha256: 'a'.repeat(64) }, configuration)?.predicate).not.toHaveProperty('url');
});

test('an envelope a run writes matches the schema verify reads it with', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, BODY, privateKey);
  expect(check<Envelope>(new URL(`${SCHEMA.href}#/$defs/envelope`), envelope)).toMatchObject({ ok: true });
  expect(check<Envelope>(new URL(`${SCHEMA.href}#/$defs/envelope`), { ...envelope, signatures: [] })).toMatchObject({ ok: false });
});
