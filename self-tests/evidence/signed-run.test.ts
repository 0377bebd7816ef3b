import { expect, test } from '@playwright/test';
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { keyIdOf, signEnvelope, type Envelope } from '../../harness/evidence/dsse.ts';
import { check } from '../../harness/files/checked.ts';
import { IN_TOTO_PAYLOAD_TYPE, type Statement } from '../../reporters/attestation.ts';
import { keyForms } from '../support/key-forms.ts';
import { unpack, verifyCommand } from '../support/bundles.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { runClauses } from '../support/run-clauses.ts';
import { runSuite, runSuiteProcess, type SuiteRun } from '../support/run-suite.ts';

// Issue 31, point 5, "Done when": the attestation verifies, and a changed byte in the bundle or the statement is
// refused. Runs of the embedded reference target signed with keys made here (Ed25519 for the archive, ECDSA
// P-256 for a bundle folder), verify as a user runs it, and runs without a verdict, which sign nothing. The
// archive's run is the command's, in a child process, as a user signs a run; the others the engine's, in this one.

test.describe.configure({ mode: 'serial' });

const SCHEMA = new URL('../../reporters/attestation.schema.json', pathToFileURL(__filename));

interface Signer {
  privateKey: KeyObject;
  keyFile: string;
  publicFile: string;
}

/** A key pair made for this test: the private key in a file only the run reads, the public one beside it. */
function signer(kind: 'ed25519' | 'p256', dir: string): Signer {
  const { privateKey, publicKey } = kind === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyFile = path.join(dir, `${kind}.pem`);
  const publicFile = path.join(dir, `${kind}.pub.pem`);
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(publicFile, publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, keyFile, publicFile };
}

const keys = mkdtempSync(path.join(os.tmpdir(), 'conformance-signed-run-keys-'));
const ed25519 = signer('ed25519', keys);
const p256 = signer('p256', keys);
let archiveRun: SuiteRun;
let folderRun: SuiteRun;
let evidenceDir: string;
/** Everything the runs and verify printed, searched for the keys at the end. */
const printed: string[] = [];

test.beforeAll(async () => {
  archiveRun = await runSuiteProcess({ CONFORMANCE_SIGNING_KEY: ed25519.keyFile });
  evidenceDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'conformance-signed-evidence-')), 'evidence');
  folderRun = await runSuite({ CONFORMANCE_SIGNING_KEY: p256.keyFile, CONFORMANCE_EVIDENCE_DIR: evidenceDir });
  printed.push(archiveRun.stdout, archiveRun.stderr, folderRun.stdout, folderRun.stderr);
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const envelopeOf = (file: string): Envelope => JSON.parse(readFileSync(file, 'utf8'));
const statementOf = (envelope: Envelope): Statement => JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));

async function verify(args: string[]) {
  const result = await verifyCommand(args);
  printed.push(result.stdout, result.stderr);
  return result;
}

/** A copy of a bundle and its attestation in a folder of their own, `edit` given the copies' paths. */
function copied(bundle: string, edit: (bundle: string, attestation: string) => void = () => {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-signed-copy-'));
  const [copy, attestation] = [path.join(dir, path.basename(bundle)), path.join(dir, `${path.basename(bundle)}.intoto.jsonl`)];
  copyFileSync(bundle, copy);
  copyFileSync(`${bundle}.intoto.jsonl`, attestation);
  edit(copy, attestation);
  return copy;
}

test('a signed run writes an in-toto attestation of its evidence.tar.gz beside it, about the archive, saying its verdict', () => {
  expect(archiveRun.exitCode, archiveRun.stdout + archiveRun.stderr).toBe(0);
  const archive = path.join(archiveRun.reportDir, 'evidence.tar.gz');
  const attestation = `${archive}.intoto.jsonl`;
  expect(archiveRun.stdout).toContain(`  attestation: ${attestation} (signed with an Ed25519 key, keyid ${keyIdOf(ed25519.privateKey).slice(0, 16)})\n`);
  const lines = readFileSync(attestation, 'utf8').split('\n');
  expect(lines).toHaveLength(2); // one envelope, and the line's end
  const envelope = envelopeOf(attestation);
  expect(check(new URL(`${SCHEMA.href}#/$defs/envelope`), envelope)).toMatchObject({ ok: true });
  expect(envelope.payloadType).toBe(IN_TOTO_PAYLOAD_TYPE);
  const statement = statementOf(envelope);
  expect(check(new URL(`${SCHEMA.href}#/$defs/statement`), statement)).toMatchObject({ ok: true });
  expect(statement.subject).toEqual([
    { name: 'evidence.tar.gz', digest: { sha256: sha256(archive) }, annotations: { target: expect.objectContaining({ embedded: true }) } },
  ]);
  const passed = archiveRun.report!.clauses.filter((c) => c.status === 'passed' && c.level === 'MUST').map((c) => c.id);
  expect(passed).toHaveLength(archiveRun.report!.summary.must.total);
  expect(statement.predicate).toMatchObject({ result: 'PASSED', passedTests: passed, warnedTests: [], failedTests: [] });
  // No CI service named a run page: no url.
  expect(statement.predicate).not.toHaveProperty('url');
});

test('verify with the public key says VERIFIED; without it, that the attestation beside the bundle is not checked', async () => {
  const archive = path.join(archiveRun.reportDir, 'evidence.tar.gz');
  const signed = await verify([archive, '--key', ed25519.publicFile]);
  expect(signed.exitCode, signed.stdout + signed.stderr).toBe(0);
  expect(signed.stdout).toContain(
    `VERIFIED: every digest holds, the attestation ${archive}.intoto.jsonl is signed by the given key and says PASSED of this bundle`,
  );
  const unsigned = await verify([archive]);
  expect(unsigned.exitCode).toBe(0);
  expect(unsigned.stdout).toContain(
    `  an attestation lies beside the bundle, not checked: ${archive}.intoto.jsonl; give --key <public key> to check its signature\n`,
  );
  expect(unsigned.stdout).toContain('VERIFIED: every digest holds and every clause');
});

/** Each change to a copy of the archive or its attestation, and the one difference verify must name. */
const REFUSED: { title: string; edit: (bundle: string, attestation: string) => void; args?: () => string[]; difference: RegExp }[] = [
  {
    // The gzip header's time (bytes 4 to 7) is read by no one: every file of the bundle and its digests still hold.
    title: 'a changed byte of the archive, which only the attestation catches',
    edit: (bundle) => {
      const bytes = readFileSync(bundle);
      bytes[4] ^= 0x01;
      writeFileSync(bundle, bytes);
    },
    difference: /^attestation: it is about SHA-256 [0-9a-f]{64}, the bundle's is [0-9a-f]{64}: the bundle was changed after it was signed/,
  },
  {
    title: 'a changed byte of the statement: FAILED written over PASSED',
    edit: (_, attestation) => {
      const envelope = envelopeOf(attestation);
      const statement = Buffer.from(envelope.payload, 'base64').toString('utf8').replace('"result":"PASSED"', '"result":"FAILED"');
      writeFileSync(attestation, `${JSON.stringify({ ...envelope, payload: Buffer.from(statement).toString('base64') })}\n`);
    },
    difference: /^attestation: line 1: no signature verifies with the given key: the statement or its signature was changed after signing/,
  },
  {
    title: 'a changed character of the payload as written',
    edit: (_, attestation) => {
      const envelope = envelopeOf(attestation);
      const at = Math.floor(envelope.payload.length / 2);
      const payload = envelope.payload.slice(0, at) + (envelope.payload[at] === 'A' ? 'B' : 'A') + envelope.payload.slice(at + 1);
      writeFileSync(attestation, `${JSON.stringify({ ...envelope, payload })}\n`);
    },
    difference: /^attestation: line 1: no signature verifies with the given key/,
  },
  {
    title: "a swapped signature: the same key's over another statement",
    edit: (_, attestation) => {
      const envelope = envelopeOf(attestation);
      const other = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from('{"_type":"https://in-toto.io/Statement/v1"}'), ed25519.privateKey);
      writeFileSync(attestation, `${JSON.stringify({ ...envelope, signatures: other.signatures })}\n`);
    },
    difference: /^attestation: line 1: no signature verifies with the given key/,
  },
  {
    title: 'another public key',
    edit: () => {},
    args: () => ['--key', p256.publicFile],
    difference: new RegExp(`^attestation: line 1: it is signed by another key \\(keyid ${keyIdOf(ed25519.privateKey).slice(0, 16)}\\), not the given one`),
  },
  {
    title: 'the attestation taken away',
    edit: (_, attestation) => writeFileSync(attestation, ''),
    difference: /^attestation: it holds no envelope$/,
  },
];

for (const { title, edit, args, difference } of REFUSED) {
  test(`verify refuses ${title}: exit 1, one difference naming it`, async () => {
    const bundle = copied(path.join(archiveRun.reportDir, 'evidence.tar.gz'), edit);
    const result = await verify([bundle, ...(args?.() ?? ['--key', ed25519.publicFile])]);
    expect(result.exitCode, result.stdout + result.stderr).toBe(1);
    const differences = result.stdout.split('\n').filter((l) => l.startsWith('  difference  '));
    expect(differences).toEqual([expect.stringMatching(new RegExp(`^  difference  ${difference.source.slice(1)}`))]);
    // Every one of these is the attestation's: the bundle itself holds, and a key that did not sign is said as such, not counted.
    const wrongKey = /no signature verifies|signed by another key/.test(difference.source);
    expect(result.stdout).toContain(
      wrongKey ? 'NOT VERIFIED: the signature does not match the given key' : 'NOT VERIFIED: the bundle itself holds, but its attestation does not',
    );
    expect(result.stdout).not.toContain('difference(s)');
  });
}

test('verify given a key refuses a bundle whose attestation is missing (exit 1), and a key it cannot use (exit 2)', async () => {
  const bundle = copied(path.join(archiveRun.reportDir, 'evidence.tar.gz'));
  const missing = await verify([bundle, '--key', ed25519.publicFile, '--attestation', path.join(path.dirname(bundle), 'elsewhere.intoto.jsonl')]);
  expect(missing.exitCode).toBe(1);
  expect(missing.stdout).toContain(
    `difference  attestation: ${path.join(path.dirname(bundle), 'elsewhere.intoto.jsonl')} is missing, so no signed claim holds`,
  );
  // A private key is refused with the line that says what --key takes, whichever verifies: it is a secret.
  const privateKey = await verify([bundle, '--key', ed25519.keyFile]);
  expect(privateKey.exitCode).toBe(2);
  expect(privateKey.stderr).toBe(
    `admin-api-conformance verify: --key takes the public key that checks the signature; ${ed25519.keyFile} holds a private key, a secret to keep where the run signs: give its public half (openssl pkey -in <private key> -pubout)\n`,
  );
  const notAKey = await verify([bundle, '--key', bundle]);
  expect(notAKey.exitCode).toBe(2);
  expect(notAKey.stderr).toBe(`admin-api-conformance verify: --key: the file ${bundle} holds no public key in PEM form\n`);
  const noBundle = await verify(['--key', ed25519.publicFile]);
  expect(noBundle.exitCode).toBe(2);
});

test('a bundle folder signed with a P-256 key holds its attestation, about its manifest, and verifies; a changed manifest does not', async () => {
  expect(folderRun.exitCode, folderRun.stdout + folderRun.stderr).toBe(0);
  const attestation = path.join(evidenceDir, 'manifest.json.intoto.jsonl');
  expect(folderRun.stdout).toContain(`  attestation: ${attestation} (signed with an ECDSA P-256 key`);
  expect(statementOf(envelopeOf(attestation)).subject[0]).toMatchObject({
    name: 'manifest.json',
    digest: { sha256: sha256(path.join(evidenceDir, 'manifest.json')) },
  });
  const signed = await verify([evidenceDir, '--key', p256.publicFile]);
  expect(signed.exitCode, signed.stdout).toBe(0);
  expect(signed.stdout).toContain('says PASSED of this bundle');
  // The manifest's time of making is compared with nothing else: only the signature covers it.
  const manifest = path.join(evidenceDir, 'manifest.json');
  writeFileSync(
    manifest,
    readFileSync(manifest, 'utf8').replace(/("createdAt": "\d{4})/, (year) => year.replace(/\d$/, (d) => String((Number(d) + 1) % 10))),
  );
  const changed = await verify([evidenceDir, '--key', p256.publicFile]);
  expect(changed.exitCode).toBe(1);
  expect(changed.stdout.split('\n').filter((l) => l.startsWith('  difference'))).toEqual([
    expect.stringMatching(/^ {2}difference {2}attestation: it is about SHA-256/),
  ]);
});

test('a run without a verdict signs nothing: a partial run says why, a refused key stops the run in one line', async () => {
  const projects = loadCatalogue()
    .map((c) => c.id)
    .filter((id) => id.startsWith('projects.'));
  const partial = await runClauses({ CONFORMANCE_SIGNING_KEY: ed25519.keyFile }, projects);
  printed.push(partial.stdout, partial.stderr);
  expect(partial.exitCode, partial.stdout + partial.stderr).toBe(3);
  expect(partial.report?.verdict).toBe('partial');
  expect(partial.stdout).toContain('  attestation: none, the run has no verdict (PARTIAL); only a pass or a fail is signed\n');
  expect(existsSync(path.join(partial.reportDir, 'evidence.tar.gz'))).toBe(true);
  expect(existsSync(path.join(partial.reportDir, 'evidence.tar.gz.intoto.jsonl'))).toBe(false);

  const refused = await runSuite({ CONFORMANCE_SIGNING_KEY: ed25519.publicFile });
  printed.push(refused.stdout, refused.stderr);
  expect(refused.exitCode).toBe(2);
  expect(refused.stderr).toBe(
    `conformance: configuration error: CONFORMANCE_SIGNING_KEY: the file ${ed25519.publicFile} holds a public key; give the private key that signs (the public one verifies)\n`,
  );
  expect(readdirSync(refused.reportDir).filter((f) => f.includes('intoto'))).toEqual([]);
});

test('a run whose bundle cannot be written signs nothing, and says so; its verdict stands', async () => {
  const blocked = path.join(mkdtempSync(path.join(os.tmpdir(), 'conformance-signed-blocked-')), 'a-file');
  writeFileSync(blocked, 'a file where the evidence folder would be');
  const run = await runSuite({ CONFORMANCE_SIGNING_KEY: ed25519.keyFile, CONFORMANCE_EVIDENCE_DIR: path.join(blocked, 'evidence') });
  printed.push(run.stdout, run.stderr);
  expect(run.exitCode, run.stdout + run.stderr).toBe(0);
  expect(run.stdout).toMatch(/ {2}evidence: none, it could not be written \(.*ENOTDIR.*\)\n {2}attestation: none, there is no evidence bundle to sign\n/);
});

/** Every file below a folder, hidden ones included, and the files of each archive in it, unpacked. */
async function everyFile(dir: string): Promise<string[]> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
  const unpacked = await Promise.all(files.filter((f) => f.endsWith('.tar.gz')).map(async (f) => everyFile(await unpack(f))));
  return [...files, ...unpacked.flat()];
}

test('no form of either private key is in any file of the report folders, the bundles or anything printed', async () => {
  const files = (await Promise.all([archiveRun.reportDir, folderRun.reportDir, evidenceDir].map(everyFile))).flat();
  expect(files.some((f) => f.endsWith('.intoto.jsonl'))).toBe(true);
  expect(files.some((f) => f.endsWith('exchanges.json'))).toBe(true);
  const written = [
    ...files.map((f) => ({ where: f, bytes: readFileSync(f) })),
    ...printed.map((text, i) => ({ where: `output ${i}`, bytes: Buffer.from(text) })),
  ];
  for (const signer of [ed25519, p256])
    for (const form of keyForms(signer.privateKey))
      for (const { where, bytes } of written) expect(bytes.includes(form), `${where} holds a form of a private key`).toBe(false);
});
