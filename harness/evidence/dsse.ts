import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

// DSSE, the envelope in-toto attestations are signed in (secure-systems-lab/dsse, protocol.md): the signature
// covers the payload's type and bytes in the pre-authentication encoding, never the JSON around them, so no
// canonical form of JSON is needed and a payload cannot be read as another type than it was signed as.

export interface Envelope {
  payload: string;
  payloadType: string;
  signatures: { keyid?: string; sig: string }[];
}

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes, in ASCII decimal. */
export function pae(payloadType: string, body: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${body.length} `), body]);
}

/**
 * The key's hint in a signature: the SHA-256 of its public key as DER (SubjectPublicKeyInfo), what
 * `openssl pkey -pubin -outform DER | sha256sum` prints. DSSE leaves it unsigned: it only names the key in words.
 */
export const keyIdOf = (key: KeyObject): string =>
  createHash('sha256')
    .update((key.type === 'public' ? key : createPublicKey(key)).export({ type: 'spki', format: 'der' }))
    .digest('hex');

/**
 * Ed25519 signs the message itself; ECDSA (P-256, harness/secrets/signing-key.ts) its SHA-256, the signature
 * in DER, as most verifiers of DSSE read it.
 */
const digestOf = (key: KeyObject) => (key.asymmetricKeyType === 'ec' ? 'sha256' : null);

/** Whether the key made this signature over these bytes; a signature that is no signature at all is not one. */
function signedBy(key: KeyObject, bytes: Buffer, sig: Buffer): boolean {
  try {
    return verify(digestOf(key), bytes, { key, dsaEncoding: 'der' }, sig);
  } catch {
    return false;
  }
}

/** The envelope of a payload, signed with the key over its PAE. */
export function signEnvelope(payloadType: string, body: Buffer, key: KeyObject): Envelope {
  const sig = sign(digestOf(key), pae(payloadType, body), { key, dsaEncoding: 'der' });
  return { payloadType, payload: body.toString('base64'), signatures: [{ keyid: keyIdOf(key), sig: sig.toString('base64') }] };
}

/**
 * Base64 in either of DSSE's alphabets, padded or not, or undefined: Buffer.from skips what it cannot read, so
 * the text is checked first, by a pattern without groups (a group repeated over megabytes runs out of stack).
 */
function decoded(text: string): Buffer | undefined {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  const data = standard.replace(/={1,2}$/, '');
  const wellFormed = /^[A-Za-z0-9+/]*$/.test(data) && data.length % 4 !== 1 && (data === standard || standard.length % 4 === 0);
  return wellFormed ? Buffer.from(data, 'base64') : undefined;
}

/**
 * The payload of an envelope one of whose signatures the key makes over its PAE, or why there is none. The
 * payload's type is not judged here: it is signed, and the caller says which types it reads.
 */
export function openEnvelope(envelope: Envelope, key: KeyObject): { body: Buffer } | { problem: string } {
  const body = decoded(envelope.payload);
  if (body === undefined) return { problem: 'its payload is not base64' };
  const signed = pae(envelope.payloadType, body);
  const verifies = envelope.signatures.some(({ sig }) => {
    const bytes = decoded(sig);
    return bytes !== undefined && bytes.length > 0 && signedBy(key, signed, bytes);
  });
  if (verifies) return { body };
  const given = keyIdOf(key);
  const named = envelope.signatures.map((s) => s.keyid).filter((id): id is string => id !== undefined && id !== '');
  if (named.length > 0 && !named.includes(given))
    return {
      problem: `it is signed by another key (keyid ${[...new Set(named.map((id) => id.slice(0, 16)))].slice(0, 3).join(', ')}), not the given one (keyid ${given.slice(0, 16)})`,
    };
  return { problem: 'no signature verifies with the given key: the statement or its signature was changed after signing, or another key signed it' };
}
