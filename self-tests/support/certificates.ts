import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

// A throw-away public-key infrastructure, made afresh by each test that needs one and trusted by nothing
// else: an authority, certificates it signs for 127.0.0.1 (valid, expired, for another name), a client
// certificate, and a stranger authority's client certificate that no gateway here trusts.

/** A certificate and its private key, in PEM. */
export interface KeyPair {
  cert: string;
  key: string;
}

export interface ThrowawayPki {
  /** The folder of the files below; `remove()` deletes it. */
  dir: string;
  ca: KeyPair;
  /** The authority's certificate as a file, for CONFORMANCE_CA_FILE. */
  caFile: string;
  /** For 127.0.0.1, valid now. */
  server: KeyPair;
  /** For 127.0.0.1, valid last year only. */
  expired: KeyPair;
  /** Valid now, for another host name than 127.0.0.1. */
  otherHost: KeyPair;
  /** A client certificate the authority signed, as files for CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY. */
  client: KeyPair & { certFile: string; keyFile: string };
  /** A client certificate from an authority no server here trusts. */
  strangerClient: KeyPair & { certFile: string; keyFile: string };
  remove(): void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

async function authority(name: string): Promise<KeyPair> {
  const made = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert: made.cert, key: made.private };
}

async function signed(
  ca: KeyPair,
  name: string,
  use: 'server' | 'client',
  altName: { type: 2; value: string } | { type: 7; ip: string },
  from = new Date(Date.now() - DAY_MS),
  until = new Date(Date.now() + 30 * DAY_MS),
): Promise<KeyPair> {
  const made = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.key, cert: ca.cert },
    notBeforeDate: from,
    notAfterDate: until,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: use === 'server', clientAuth: use === 'client' },
      { name: 'subjectAltName', altNames: [altName] },
    ],
  });
  return { cert: made.cert, key: made.private };
}

function asFiles(dir: string, name: string, pair: KeyPair): KeyPair & { certFile: string; keyFile: string } {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  writeFileSync(certFile, pair.cert);
  writeFileSync(keyFile, pair.key, { mode: 0o600 });
  return { ...pair, certFile, keyFile };
}

/** Makes the whole infrastructure in a few tens of milliseconds (elliptic-curve keys). */
export async function makeThrowawayPki(): Promise<ThrowawayPki> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-pki-'));
  const ca = await authority('Conformance self-test authority');
  const stranger = await authority('Stranger authority');
  const loopback = { type: 7, ip: '127.0.0.1' } as const;
  const caFile = path.join(dir, 'ca.crt');
  writeFileSync(caFile, ca.cert);
  return {
    dir,
    ca,
    caFile,
    server: await signed(ca, '127.0.0.1', 'server', loopback),
    expired: await signed(ca, '127.0.0.1', 'server', loopback, new Date(Date.now() - 400 * DAY_MS), new Date(Date.now() - 35 * DAY_MS)),
    otherHost: await signed(ca, 'admin.staging.invalid', 'server', { type: 2, value: 'admin.staging.invalid' }),
    client: asFiles(dir, 'client', await signed(ca, 'conformance-suite', 'client', { type: 2, value: 'conformance-suite' })),
    strangerClient: asFiles(dir, 'stranger-client', await signed(stranger, 'stranger', 'client', { type: 2, value: 'stranger' })),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
