import { constants } from 'node:buffer';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { BundleError } from './bundle-error.ts';
import { FOLDER_ATTESTATION, type BundleFiles } from './bundle.ts';
import { visible } from '../files/visible.ts';

// Reading a bundle someone else made: whatever the path names (nothing, a pipe, a device, a damaged
// archive), the answer is the bundle's files or a BundleError that says what is wrong, never a wait or a crash.

const tar = () => require('tar') as typeof import('tar');

/** How much of a bundle this suite reads, checked from sizes stated before any content is read. */
export interface BundleLimits {
  fileBytes: number;
  bundleBytes: number;
}

/**
 * A file of a bundle is read back as one text (JSON.parse, the judge's bodies), and Node makes no string
 * of more bytes of UTF-8 than MAX_STRING_LENGTH (about 512 MiB): a larger file could not be judged by any
 * copy of this suite, whoever wrote it. The exchanges are the large file (about 69 MB for 100,000 projects);
 * the reports hold bodies only cut short, so the files together are given as much again.
 */
export const BUNDLE_LIMITS: BundleLimits = { fileBytes: constants.MAX_STRING_LENGTH, bundleBytes: 2 * constants.MAX_STRING_LENGTH };

/** A tar header, counted with the files' bytes: an archive of endless empty entries ends too. */
const HEADER_BYTES = 512;

/** Counts each file's stated size against the limits, before its content is read. */
function sizeCounter(limits: BundleLimits): (name: string, bytes: number) => void {
  let total = 0;
  return (name, bytes) => {
    if (bytes > limits.fileBytes)
      throw new BundleError(`${visible(name)} states ${bytes} bytes, more than the ${limits.fileBytes} this suite reads of one file of a bundle`);
    total += HEADER_BYTES + bytes;
    if (total > limits.bundleBytes) throw new BundleError(`its files state more than the ${limits.bundleBytes} bytes this suite reads of a bundle`);
  };
}

/**
 * The most entries a bundle may have, folders included: a run writes about ten files (bundle.ts BUNDLE_FILES), so
 * a bundle of thousands was made to keep a reader busy.
 */
export const BUNDLE_ENTRIES = 256;

/**
 * Why a name read from an archive or a folder cannot be a file of a bundle, if it cannot: an absolute path, a
 * `..` or `.` step, an empty step or a backslash (each leads elsewhere once unpacked, or names one file two ways),
 * or a name taken twice (readers differ on which copy wins).
 */
function entryProblem(name: string, seen: Set<string>): string | undefined {
  if (
    name === '' ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.includes('\0') ||
    name.split('/').some((step) => step === '' || step === '.' || step === '..')
  )
    return `${visible(name)} is no path inside the bundle; a bundle's files lie in it, named plainly`;
  if (seen.has(name)) return `${visible(name)} is in it twice; a bundle holds each file once`;
  if (seen.size >= BUNDLE_ENTRIES) return `it has more than ${BUNDLE_ENTRIES} entries; a bundle a run writes holds about ten files`;
  seen.add(name);
  return undefined;
}

/** Compressed bytes given to the archive reader at a time, so that it can be stopped between two reads. */
const READ_BYTES = 64 * 1024;

/** What a path is, in words, when it is neither a file nor a folder. */
function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'neither a file nor a folder';
}

/** How deep a bundle's folders go: its files, and the reports/ folder beside them. */
const FOLDER_DEPTH = 2;

/**
 * The names of a bundle folder's files, walked without following links: a link (to a folder of its own, a loop)
 * is refused, and nothing deeper than a bundle's layout is read, so that no folder can keep the walk going.
 */
function filesIn(dir: string, seen: Set<string>, below = '', depth = 0): string[] {
  return readdirSync(path.join(dir, below), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const name = below ? `${below}/${entry.name}` : entry.name;
      const problem = entryProblem(name, seen);
      if (problem !== undefined) throw new BundleError(problem);
      if (entry.isSymbolicLink()) throw new BundleError(`${visible(name)} is a link; a bundle holds files and folders only`);
      if (entry.isDirectory()) return depth + 1 < FOLDER_DEPTH ? filesIn(dir, seen, name, depth + 1) : [];
      // The attestation of a signed run says something of the bundle, and is checked as such (readers/verify.ts).
      return entry.isFile() && name !== FOLDER_ATTESTATION ? [name] : [];
    });
}

function readFolder(dir: string, limits: BundleLimits): BundleFiles {
  const count = sizeCounter(limits);
  const files = filesIn(dir, new Set()).map((name) => ({ name, stat: statSync(path.join(dir, name)) }));
  for (const { name, stat } of files) count(name, stat.size);
  return new Map(files.map(({ name }) => [name, readFileSync(path.join(dir, name))]));
}

/** Reads an archive in memory: nothing of it is written anywhere, so no entry can land outside a folder. */
function readArchive(file: string, limits: BundleLimits): BundleFiles {
  const files: BundleFiles = new Map();
  const count = sizeCounter(limits);
  const seen = new Set<string>();
  let failure: Error | undefined;
  // Strict: a damaged header or a stream cut short is an error, not a warning that leaves the bundle short of a file.
  const parser = new (tar().Parser)({
    strict: true,
    onReadEntry: (entry) => {
      const name = entry.path.replace(/^\.\//, '');
      try {
        count(name, entry.size);
        // A folder's entry ends in a slash (`reports/`), and an archive made of a folder's contents starts with `./`.
        const problem = entry.type === 'Directory' && name === '' ? undefined : entryProblem(name.replace(/\/$/, ''), seen);
        if (problem !== undefined) throw new BundleError(problem);
      } catch (error) {
        return parser.abort(error as BundleError);
      }
      if (entry.type === 'Directory') return entry.resume();
      if (entry.type !== 'File') return parser.abort(new BundleError(`${visible(name)} is a ${entry.type}, not a file`));
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => files.set(name, Buffer.concat(chunks)));
    },
  });
  parser.on('error', (error: Error) => (failure ??= error));
  const fd = openSync(file, 'r');
  try {
    // A new buffer for every read: the reader may keep part of the last one until the next arrives.
    for (let chunk = Buffer.alloc(READ_BYTES), n: number; !failure && (n = readSync(fd, chunk)) > 0; chunk = Buffer.alloc(READ_BYTES))
      parser.write(chunk.subarray(0, n));
    if (!failure) parser.end();
  } finally {
    closeSync(fd);
  }
  if (failure instanceof BundleError) throw failure;
  // tar's guard against archive bombs: the archive is whole, but unpacks to too much for its size.
  if (failure && /max decompression ratio exceeded/.test(failure.message))
    throw new BundleError(
      'it unpacks to more than 1,000 times its own size, as an archive bomb does; the bundles the suite writes hold JSON, HTML and SVG, which never pack that tightly',
    );
  if (failure) throw new BundleError(`it is no whole tar.gz archive (${visible(failure.message)})`);
  return files;
}

/** A bundle's files, from its archive or its folder; a BundleError when the path holds no bundle that can be read. */
export function readBundle(where: string, limits = BUNDLE_LIMITS): BundleFiles {
  let stat: Stats;
  try {
    stat = statSync(where);
    // A pipe or a device is never opened: reading one waits for a writer, or never ends.
    if (stat.isDirectory()) return readFolder(where, limits);
    if (stat.isFile()) return readArchive(where, limits);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (error instanceof BundleError || code === undefined) throw error;
    throw new BundleError(code === 'ENOENT' ? 'there is no file or folder there' : `it cannot be read (${code})`);
  }
  throw new BundleError(`it is ${kindOf(stat)}, neither an evidence.tar.gz nor a bundle folder`);
}
