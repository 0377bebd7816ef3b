import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

// The key that signs a run's attestation is a secret like a token: it is held as a KeyObject, which prints and
// serialises as nothing of its material, and no message quotes the file it came from.

/** The kinds of key an attestation is signed with: what Node's crypto signs without a library, and verifiers expect. */
export type SigningKind = 'Ed25519' | 'ECDSA P-256';

/** The kind of a key the suite signs and verifies with, or in words what it is instead. */
export function signingKind(key: KeyObject): { kind: SigningKind } | { unsupported: string } {
  if (key.asymmetricKeyType === 'ed25519') return { kind: 'Ed25519' };
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return { kind: 'ECDSA P-256' };
  if (key.asymmetricKeyType === 'ec') return { unsupported: `an ECDSA key on the curve ${key.asymmetricKeyDetails?.namedCurve ?? 'unknown'}` };
  return { unsupported: `a key of type ${key.asymmetricKeyType ?? 'unknown'}` };
}

/** What the suite signs with, in words, for any message about a key. */
export const SIGNING_KINDS = 'an Ed25519 or an ECDSA P-256 key';

/** A private key of a kind the suite signs with, from a PEM file's bytes, or why not (never quoting them). */
export function signingKeyOf(pem: Buffer): { key: KeyObject; kind: SigningKind } | { problem: string } {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    if (isPublicKey(pem)) return { problem: 'holds a public key; give the private key that signs (the public one verifies)' };
    return { problem: 'holds no unencrypted private key in PEM form' };
  }
  const kind = signingKind(key);
  return 'kind' in kind ? { key, kind: kind.kind } : { problem: `holds ${kind.unsupported}; the suite signs with ${SIGNING_KINDS}` };
}

/** A public key of a kind the suite verifies with (from a public key, a certificate or a private key), or why not. */
export function verifyingKeyOf(pem: Buffer): { key: KeyObject; kind: SigningKind } | { problem: string } {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    return { problem: 'holds no public key in PEM form' };
  }
  const kind = signingKind(key);
  return 'kind' in kind ? { key, kind: kind.kind } : { problem: `holds ${kind.unsupported}; attestations are signed with ${SIGNING_KINDS}` };
}

function isPublicKey(pem: Buffer): boolean {
  try {
    return createPublicKey(pem).type === 'public';
  } catch {
    return false;
  }
}
