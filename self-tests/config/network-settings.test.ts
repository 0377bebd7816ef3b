import { expect, test } from '@playwright/test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../harness/config/config.ts';
import { makeThrowawayPki, type ThrowawayPki } from '../support/certificates.ts';
import { recordingReference } from '../support/hostile-servers.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// Issue 12, transport: the proxy, authority and client-certificate settings are checked before the first
// request. A missing or unreadable file, or one that holds the wrong thing, is one line naming the
// variable and the path, never the file's content; a proxy URL's password is never quoted.

let pki: ThrowawayPki;
test.beforeAll(async () => {
  pki = await makeThrowawayPki();
  writeFileSync(path.join(pki.dir, 'notes.txt'), 'not a certificate\n');
  mkdirSync(path.join(pki.dir, 'folder'));
});
test.afterAll(() => pki.remove());

interface Mistake {
  title: string;
  /** The variables, given the throw-away infrastructure's folder. */
  variables(dir: string): Record<string, string>;
  line: string;
}

const MISTAKES: Mistake[] = [
  {
    title: 'a CA file that does not exist',
    variables: (dir) => ({ CONFORMANCE_CA_FILE: path.join(dir, 'missing.crt') }),
    line: 'CONFORMANCE_CA_FILE: the file $DIR/missing.crt cannot be read (ENOENT)',
  },
  {
    title: 'a CA file that is a folder',
    variables: (dir) => ({ CONFORMANCE_CA_FILE: path.join(dir, 'folder') }),
    line: 'CONFORMANCE_CA_FILE: the file $DIR/folder cannot be read (EISDIR)',
  },
  {
    title: 'a CA file that holds no certificate',
    variables: (dir) => ({ CONFORMANCE_CA_FILE: path.join(dir, 'notes.txt') }),
    line: 'CONFORMANCE_CA_FILE: the file $DIR/notes.txt holds no certificate in PEM form',
  },
  {
    title: 'a CA file that holds a private key',
    variables: (dir) => ({ CONFORMANCE_CA_FILE: path.join(dir, 'client.key') }),
    line: 'CONFORMANCE_CA_FILE: the file $DIR/client.key holds no certificate in PEM form',
  },
  {
    title: 'a client certificate without its key',
    variables: (dir) => ({ CONFORMANCE_CLIENT_CERT: path.join(dir, 'client.crt') }),
    line: 'CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY go together: set CONFORMANCE_CLIENT_KEY too',
  },
  {
    title: 'a client key without its certificate',
    variables: (dir) => ({ CONFORMANCE_CLIENT_KEY: path.join(dir, 'client.key') }),
    line: 'CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY go together: set CONFORMANCE_CLIENT_CERT too',
  },
  {
    title: 'a client key file that does not exist',
    variables: (dir) => ({ CONFORMANCE_CLIENT_CERT: path.join(dir, 'client.crt'), CONFORMANCE_CLIENT_KEY: path.join(dir, 'gone.key') }),
    line: 'CONFORMANCE_CLIENT_KEY: the file $DIR/gone.key cannot be read (ENOENT)',
  },
  {
    title: 'a client key file that holds the certificate',
    variables: (dir) => ({ CONFORMANCE_CLIENT_CERT: path.join(dir, 'client.crt'), CONFORMANCE_CLIENT_KEY: path.join(dir, 'client.crt') }),
    line: 'CONFORMANCE_CLIENT_KEY: the file $DIR/client.crt holds no unencrypted private key in PEM form',
  },
  {
    title: 'a client key that belongs to another certificate',
    variables: (dir) => ({ CONFORMANCE_CLIENT_CERT: path.join(dir, 'client.crt'), CONFORMANCE_CLIENT_KEY: path.join(dir, 'stranger-client.key') }),
    line: 'CONFORMANCE_CLIENT_KEY: the key in $DIR/stranger-client.key does not belong to the certificate in $DIR/client.crt',
  },
  {
    title: 'a proxy that is not a URL',
    variables: () => ({ HTTPS_PROXY: 'proxy example 3128' }),
    line: 'HTTPS_PROXY is not an absolute URL; give one such as http://proxy.example.com:3128',
  },
  {
    title: 'a proxy of another scheme, with a password',
    variables: () => ({ https_proxy: 'socks5://suite:hunter2@127.0.0.1:1080' }),
    line: 'https_proxy must start with http:// or https://',
  },
];

for (const mistake of MISTAKES) {
  test(`${mistake.title} is a configuration error naming the variable and the path, never the content`, () => {
    const variables = mistake.variables(pki.dir);
    let error: unknown;
    try {
      loadConfig({ CONFORMANCE_BASE_URL: 'https://127.0.0.1:1', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123', ...variables }, pki.dir);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toBe(mistake.line.replaceAll('$DIR', pki.dir));
    expect(message).not.toContain('-----');
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('\n');
  });
}

test('a run with a missing client key stops before any request, with exit code 2 and one line', async () => {
  const target = await recordingReference();
  try {
    const keyFile = path.join(pki.dir, 'nowhere', 'client.key');
    const run = await runSuite(referenceTargetEnv(target.url, { CONFORMANCE_CLIENT_CERT: pki.client.certFile, CONFORMANCE_CLIENT_KEY: keyFile }));
    expect(run.exitCode, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toBe(`conformance: configuration error: CONFORMANCE_CLIENT_KEY: the file ${keyFile} cannot be read (ENOENT)\n`);
    expect(run.report).toMatchObject({ verdict: 'error', completed: false });
    expect(target.seen).toEqual([]);
  } finally {
    await target.close();
  }
});

test('with CONFORMANCE_CA_FILE, the authorities of NODE_EXTRA_CA_CERTS stay trusted beside it', () => {
  const extra = path.join(pki.dir, 'extra.crt');
  writeFileSync(extra, pki.strangerClient.cert);
  const network = loadConfig(
    { CONFORMANCE_BASE_URL: 'https://127.0.0.1:1', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123', CONFORMANCE_CA_FILE: pki.caFile, NODE_EXTRA_CA_CERTS: extra },
    pki.dir,
  ).network;
  expect(network.ca).toEqual([readFileSync(pki.caFile, 'utf8'), pki.strangerClient.cert]);
});
