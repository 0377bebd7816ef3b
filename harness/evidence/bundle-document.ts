import { DOCUMENT_FOLDER, sha256, type BundleFiles } from './bundle.ts';

// The text of the document a bundle's run was judged against, carried in the bundle (`document/<its file>`) so
// that a diff of two runs judged by different texts can compare them row by row. A bundle made before bundles
// carried it has none, and is no less a bundle: only the rows a diff could name are lost.

/** Where the copy of a document named `file` (contracts/spec/document.json's) lies in a bundle. */
export const documentEntry = (file: string) => `${DOCUMENT_FOLDER}/${file}`;

const inFolder = (name: string) => name.startsWith(`${DOCUMENT_FOLDER}/`);

/** The bundle's copy of the document, by its path in the bundle; undefined when it carries none. */
export function bundledDocument(files: BundleFiles): { name: string; bytes: Buffer } | undefined {
  const [name] = [...files.keys()].filter(inFolder);
  return name === undefined ? undefined : { name, bytes: files.get(name)! };
}

/**
 * How the bundle's copy of the document is not the text its run names (`sha256`, the manifest's and so the
 * report's): a copy of other bytes, or more than one copy. Each is a difference; no copy at all is none.
 */
export function documentProblems(files: BundleFiles, documentSha256: string): string[] {
  const names = [...files.keys()].filter(inFolder);
  if (names.length > 1) return [`${DOCUMENT_FOLDER}/: ${names.length} files, where a bundle carries one copy of the document`];
  return names
    .filter((name) => sha256(files.get(name)!) !== documentSha256)
    .map((name) => `${name}: its SHA-256 is ${sha256(files.get(name)!)}, the run was judged against the document ${documentSha256}`);
}
