import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONTRACTS_DIR } from './contracts.ts';

/** The specification every clause comes from, as reports name it. */
export interface SpecDocument {
  /** Its first heading. */
  title: string;
  /** SHA-256 of the exact text the contracts were derived from, in hex. */
  sha256: string;
  /** The path or URL that text was read from. */
  readFrom: string;
}

export const SPEC_DIR = path.join(CONTRACTS_DIR, 'spec');

// The suite ships the copy of the document beside the contracts: it is read once per process, with the file that
// says what it is, however many reports name it.

let about: { file: string; readFrom: string } | undefined;
let bytes: Buffer | undefined;
let text: string | undefined;
let cached: SpecDocument | undefined;

/** contracts/spec/document.json: which file is the copy, and where it was read from. */
const aboutDocument = () => (about ??= JSON.parse(readFileSync(path.join(SPEC_DIR, 'document.json'), 'utf8')) as { file: string; readFrom: string });

/** Where the copy of the document lies. */
export function documentFile(): string {
  return path.join(SPEC_DIR, aboutDocument().file);
}

const shipped = () => (bytes ??= readFileSync(documentFile()));

/** The copy of the document's bytes, exactly as the suite ships them: a copy of its own for each caller. */
export const documentBytes = (): Buffer => Buffer.from(shipped());

/** The copy of the document's text. */
export function documentText(): string {
  return (text ??= shipped().toString('utf8'));
}

/** The copy of the document kept in contracts/spec/, named by its title and hash. */
export function specDocument(): SpecDocument {
  if (cached) return cached;
  const title = /^# (.+)$/m.exec(documentText())?.[1].trim() ?? aboutDocument().file;
  return (cached = { title, sha256: createHash('sha256').update(shipped()).digest('hex'), readFrom: aboutDocument().readFrom });
}

/** Where the copy of the document lies in the suite, as an attestation names it. */
export function documentPath(): string {
  return `contracts/spec/${aboutDocument().file}`;
}
