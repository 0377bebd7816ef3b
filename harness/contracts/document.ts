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

let cached: SpecDocument | undefined;
let text: string | undefined;

/** Where the copy of the document lies. */
export function documentFile(): string {
  const about = JSON.parse(readFileSync(path.join(SPEC_DIR, 'document.json'), 'utf8')) as { file: string };
  return path.join(SPEC_DIR, about.file);
}

/** The copy of the document's text. */
export function documentText(): string {
  return (text ??= readFileSync(documentFile(), 'utf8'));
}

/** The copy of the document kept in contracts/spec/, named by its title and hash. */
export function specDocument(): SpecDocument {
  if (cached) return cached;
  const about = JSON.parse(readFileSync(path.join(SPEC_DIR, 'document.json'), 'utf8')) as { file: string; readFrom: string };
  const text = readFileSync(path.join(SPEC_DIR, about.file));
  const title = /^# (.+)$/m.exec(text.toString('utf8'))?.[1].trim() ?? about.file;
  return (cached = { title, sha256: createHash('sha256').update(text).digest('hex'), readFrom: about.readFrom });
}

/** Where the copy of the document lies in the suite, as an attestation names it. */
export function documentPath(): string {
  const about = JSON.parse(readFileSync(path.join(SPEC_DIR, 'document.json'), 'utf8')) as { file: string };
  return `contracts/spec/${about.file}`;
}
