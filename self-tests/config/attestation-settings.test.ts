import { expect, test } from '@playwright/test';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { ciRunUrl } from '../../harness/config/ci.ts';
import { ConfigError, loadConfig } from '../../harness/config/config.ts';

// Issue 31, point 5: the key that signs a run's attestation (CONFORMANCE_SIGNING_KEY) is checked with the rest
// of the configuration, before any request: one line naming the variable and the file, never what it holds.
// Keys are made here, none is kept in the repository.

let dir: string;
const pem = (key: { export(o: object): string | Buffer }, o: object) => String(key.export(o));
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-signing-keys-'));
  const ed = generateKeyPairSync('ed25519');
  const files: Record<string, string> = {
    'ed25519.pem': pem(ed.privateKey, { type: 'pkcs8', format: 'pem' }),
    'ed25519.pub.pem': pem(ed.publicKey, { type: 'spki', format: 'pem' }),
    'p256.pem': pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, { type: 'pkcs8', format: 'pem' }),
    'p256-sec1.pem': pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, { type: 'sec1', format: 'pem' }),
    'p384.pem': pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey, { type: 'pkcs8', format: 'pem' }),
    'rsa.pem': pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey, { type: 'pkcs8', format: 'pem' }),
    'encrypted.pem': pem(ed.privateKey, { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'a passphrase' }),
    'notes.txt': 'not a key\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text, { mode: 0o600 });
  mkdirSync(path.join(dir, 'folder'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const configWith = (file: string) => loadConfig({ CONFORMANCE_EMBEDDED: 'true', CONFORMANCE_SIGNING_KEY: file }, dir);

test('an Ed25519 or ECDSA P-256 private key is taken, as a key object that shows and serialises nothing of it', () => {
  for (const [file, kind] of [
    ['ed25519.pem', 'Ed25519'],
    ['p256.pem', 'ECDSA P-256'],
    ['p256-sec1.pem', 'ECDSA P-256'],
  ]) {
    const config = configWith(file);
    expect(config.signing).toMatchObject({ kind, file: path.join(dir, file) });
    // The configuration is never written, and were it printed or serialised, the key would not be in it.
    for (const shown of [JSON.stringify(config), inspect(config, { depth: 10, showHidden: true })]) expect(shown).not.toMatch(/-----|PRIVATE/);
  }
  expect(loadConfig({ CONFORMANCE_EMBEDDED: 'true' }, dir).signing).toBeUndefined();
});

const MISTAKES: [title: string, file: string, line: string][] = [
  ['a key file that does not exist', 'missing.pem', 'the file $DIR/missing.pem cannot be read (ENOENT)'],
  ['a key file that is a folder', 'folder', 'the file $DIR/folder cannot be read (EISDIR)'],
  ['a file that holds no key', 'notes.txt', 'the file $DIR/notes.txt holds no unencrypted private key in PEM form'],
  [
    'the public key instead of the private one',
    'ed25519.pub.pem',
    'the file $DIR/ed25519.pub.pem holds a public key; give the private key that signs (the public one verifies)',
  ],
  ['an encrypted key', 'encrypted.pem', 'the file $DIR/encrypted.pem holds no unencrypted private key in PEM form'],
  ['an RSA key', 'rsa.pem', 'the file $DIR/rsa.pem holds a key of type rsa; the suite signs with an Ed25519 or an ECDSA P-256 key'],
  [
    'an ECDSA key on another curve',
    'p384.pem',
    'the file $DIR/p384.pem holds an ECDSA key on the curve secp384r1; the suite signs with an Ed25519 or an ECDSA P-256 key',
  ],
];

for (const [title, file, line] of MISTAKES) {
  test(`${title} is a configuration error naming the variable and the file, never what it holds`, () => {
    expect(() => configWith(file)).toThrow(ConfigError);
    expect(() => configWith(file)).toThrow(new ConfigError(`CONFORMANCE_SIGNING_KEY: ${line.replaceAll('$DIR', dir)}`));
  });
}

test("a CI run's page is taken from the service's own variables, and only as an absolute URL", () => {
  const github = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/gate', GITHUB_RUN_ID: '42' };
  const cases: [env: Record<string, string>, url: string | undefined][] = [
    [{}, undefined],
    [github, 'https://github.com/acme/gate/actions/runs/42'],
    [{ ...github, GITHUB_RUN_ATTEMPT: '2' }, 'https://github.com/acme/gate/actions/runs/42/attempts/2'],
    [{ GITHUB_RUN_ID: '42' }, undefined],
    [{ CI_JOB_URL: 'https://gitlab.example.com/acme/gate/-/jobs/7' }, 'https://gitlab.example.com/acme/gate/-/jobs/7'],
    [{ BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/gate/builds/9' }, 'https://buildkite.com/acme/gate/builds/9'],
    [{ CI_JOB_URL: 'not a url' }, undefined],
    [{ CI_JOB_URL: 'https://user:secret@gitlab.example.com/jobs/7' }, undefined],
  ];
  for (const [env, url] of cases) expect(ciRunUrl(env), JSON.stringify(env)).toBe(url);
});
