import path from 'node:path';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { loadSchemas } from '../harness/contracts/contracts.ts';
import { documentChanges } from '../harness/document/document-changes.ts';
import { documentBytes, specDocument } from '../harness/contracts/document.ts';
import { documentTables, MAX_DOCUMENT_BYTES } from '../harness/document/document-rows.ts';
import { sha256 } from '../harness/evidence/bundle.ts';
import { readSettingFile } from '../harness/files/setting-file.ts';
import type { DocumentComparison } from '../reporters/diff.ts';

// The texts of the document two runs were judged against, for diff to compare row by row. A report names its
// text only by its SHA-256; a text is taken only where its bytes have that hash: a file given on the command
// line, the copy a bundle carries, or the copy this suite ships, never assumed to be either run's otherwise.

/** Where one run's text may come from. */
export interface RunText {
  side: 'old' | 'new';
  /** The SHA-256 of the text its reports name. */
  sha256: string;
  /** The copy its bundle carries; null for a bundle that carries none (made before bundles did), undefined for a report. */
  bundled?: Buffer | null;
  /** The file given as --old-document or --new-document. */
  given?: string;
}

/** A text given that cannot be taken: one line, exit code 2. */
export class DocumentTextError extends Error {}

/** The run's text, or why it is not at hand. A file given that is not the run's text is a mistake, said at once. */
function textOf(run: RunText): { bytes: Buffer } | { missing: string } {
  const option = `--${run.side}-document`;
  if (run.given !== undefined) {
    const file = path.resolve(run.given);
    const read = readSettingFile(file);
    if ('reason' in read) throw new DocumentTextError(`${option}: ${file} cannot be read (${read.reason})`);
    if (sha256(read.bytes) !== run.sha256)
      throw new DocumentTextError(
        `${option}: ${file} is not the text the ${run.side} run was judged against: its SHA-256 is ${sha256(read.bytes)}, the run's document's ${run.sha256}`,
      );
    return { bytes: read.bytes };
  }
  // A bundle's copy is held to its manifest when it is read; its report may yet name another text, if the bundle was changed.
  if (run.bundled && sha256(run.bundled) === run.sha256) return { bytes: run.bundled };
  if (run.bundled) throw new DocumentTextError(`the ${run.side} run's bundle carries a text of the document other than the one its report names`);
  if (specDocument().sha256 === run.sha256) return { bytes: documentBytes() };
  if (run.bundled === null) return { missing: `the ${run.side} run's bundle carries no copy of its text (made before bundles did): give ${option} FILE` };
  return {
    missing: `the ${run.side} run's text is not at hand (a report names it only by its hash): give ${option} FILE, or diff evidence bundles, which carry it`,
  };
}

/** A text's tables, or why it has none this suite reads. */
function tablesOf(bytes: Buffer, side: string) {
  const read = bytes.length > MAX_DOCUMENT_BYTES ? { notTheDocument: 'it is larger than 1 MiB' } : documentTables(bytes.toString('utf8'));
  return 'tables' in read ? read.tables : `the ${side} run's text is not the document as this suite reads it: ${read.notTheDocument}`;
}

/** The two runs' texts compared row by row; undefined when both runs were judged by one text. */
export function compareTexts(old: RunText, neu: RunText): DocumentComparison | undefined {
  const [before, after] = [textOf(old), textOf(neu)];
  if (old.sha256 === neu.sha256) return undefined;
  if ('missing' in before || 'missing' in after) return { unavailable: [before, after].flatMap((t) => ('missing' in t ? [t.missing] : [])).join('; ') };
  const [a, b] = [tablesOf(before.bytes, 'old'), tablesOf(after.bytes, 'new')];
  if (typeof a === 'string' || typeof b === 'string') return { unavailable: [a, b].filter((t) => typeof t === 'string').join('; ') };
  return { old: old.sha256, new: neu.sha256, rows: documentChanges(a, b, loadSchemas(), loadCatalogue()) };
}
