import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { ATTESTATION_SUFFIX, FOLDER_ATTESTATION, MANIFEST } from './bundle.ts';

// What a signed run's attestation is about, and where it lies: the archive itself, by its bytes, with the
// attestation beside it; or, for a bundle written as a folder, its manifest (which names every other file by
// its SHA-256), with the attestation in the folder.

/** The artifact an attestation of a bundle names as its subject, and the file the attestation lies in. */
export interface BundleSubject {
  name: string;
  sha256: string;
  attestation: string;
}

/** Bytes hashed at a time: an archive may be larger than a string Node can hold. */
const CHUNK_BYTES = 1 << 20;

function fileSha256(file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    for (let n: number; (n = readSync(fd, chunk)) > 0; ) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Where a bundle's attestation lies: beside an archive, named after it; in a folder, named after its manifest. */
export function attestationFileOf(bundle: string): string {
  return statSync(bundle).isDirectory() ? path.join(bundle, FOLDER_ATTESTATION) : `${bundle}${ATTESTATION_SUFFIX}`;
}

/** The subject of a bundle (an archive or a folder) and where its attestation lies. */
export function bundleSubject(bundle: string): BundleSubject {
  const attestation = attestationFileOf(bundle);
  if (statSync(bundle).isDirectory()) return { name: MANIFEST, sha256: fileSha256(path.join(bundle, MANIFEST)), attestation };
  return { name: path.basename(bundle), sha256: fileSha256(bundle), attestation };
}
