import { createHash } from 'node:crypto';
import { createWriteStream, rmSync, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';
import { BundleError } from './bundle-error.ts';
import { check, schemaFile } from '../files/checked.ts';
import type { SpecDocument } from '../contracts/document.ts';
import type { Product } from '../config/product.ts';
import { makeFolder } from '../files/folders.ts';
import { visible } from '../files/visible.ts';
import { FILE_DEPTH, nestsDeeperThan } from '../json/json-depth.ts';

// tar is loaded when a bundle is first written, not with the configuration of a run.
const tar = () => require('tar') as typeof import('tar');

// An evidence bundle: the exchanges a run judged, secrets as placeholders, the run's reports, and a manifest
// with the SHA-256 of every other file. A .tar.gz by default, a folder when asked.

/** The archive a run leaves beside its reports. */
export const BUNDLE_ARCHIVE = 'evidence.tar.gz';
/** The archive while it is written; renamed to BUNDLE_ARCHIVE once whole, so no run leaves part of one under that name. */
export const PARTIAL_ARCHIVE = '.evidence.tar.gz.partial';
export const MANIFEST = 'manifest.json';
export const EXCHANGES = 'exchanges.json';
/** The reports of the run, under this folder of the bundle. */
export const REPORTS = 'reports';
/** The text of the document the run was judged against, under this folder: `document/admin-api.md`. */
export const DOCUMENT_FOLDER = 'document';
/**
 * A signed run's attestations of a file are named after it, as in-toto names a bundle of attestations
 * (in-toto/attestation, spec/v1/bundle.md): `evidence.tar.gz.intoto.jsonl` beside the archive.
 */
export const ATTESTATION_SUFFIX = '.intoto.jsonl';
/** A bundle folder's attestation is about its manifest, which names every other file by its digest; it is no file of the bundle. */
export const FOLDER_ATTESTATION = `${MANIFEST}${ATTESTATION_SUFFIX}`;

/** The renderings of a run that go into its bundle, under REPORTS, as they were written beside it. */
export const REPORT_FILES = ['conformance.json', 'index.html', 'summary.md', 'badge.svg', 'junit.xml', 'ctrf.json', 'requests.json'];

/**
 * Whether a run of this suite writes a file of this name in a bundle: the manifest, the exchanges, the reports, and
 * one copy of the document. Any other file, its digest listed or not, is none of the run's evidence.
 */
const isBundleFile = (name: string): boolean =>
  name === MANIFEST ||
  name === EXCHANGES ||
  REPORT_FILES.some((file) => name === `${REPORTS}/${file}`) ||
  (name.startsWith(`${DOCUMENT_FOLDER}/`) && /^[\w-][\w.-]*$/.test(name.slice(DOCUMENT_FOLDER.length + 1)));

export interface Manifest {
  bundleVersion: 1;
  suite: { name: string; version: string; contractsHash: string };
  document: SpecDocument;
  target: { name: string; baseUrl: string; embedded: boolean };
  product?: Product;
  /** When the bundle was made, and the day the run's known deviations were judged on. */
  createdAt: string;
  judgedOn: string;
  verdict: string;
  /** Each other file of the bundle, by its path inside it, with the SHA-256 of its bytes. */
  files: Record<string, string>;
  /** The bundle a replay run judged, when this run was one. */
  replayOf?: string;
}

/** The files of a bundle, by path inside it. */
export type BundleFiles = Map<string, Buffer>;

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The manifest of a bundle whose other files have these digests, by path inside it. */
export function manifestFile(digests: Record<string, string>, about: Omit<Manifest, 'bundleVersion' | 'files'>): Buffer {
  const files = Object.fromEntries(Object.entries(digests).sort(([a], [b]) => a.localeCompare(b)));
  const manifest: Manifest = { bundleVersion: 1, ...about, files };
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
}

function writeFolder(dir: string, files: BundleFiles): void {
  const made = new Set<string>();
  for (const [name, bytes] of files) {
    const folder = path.dirname(path.join(dir, name));
    if (!made.has(folder)) makeFolder(folder);
    made.add(folder);
    writeFileSync(path.join(dir, name), bytes);
  }
}

/** Writes the bundle as a folder: what an earlier bundle left there is removed first (its attestation too), and nothing else. */
export function writeBundleFolder(dir: string, files: BundleFiles): void {
  for (const name of [FOLDER_ATTESTATION, MANIFEST, EXCHANGES, REPORTS, DOCUMENT_FOLDER]) rmSync(path.join(dir, name), { recursive: true, force: true });
  makeFolder(dir);
  writeFolder(dir, files);
}

/** Pieces of the tar smaller than this are gathered before zlib is given them. */
const GATHERED_BYTES = 64 * 1024;

/**
 * A gzipped tar written as its files become known, with no owner, mode or time of this machine in it: the tar is
 * made in memory as files are added (a bundle's files are held there already), and the files added go at once to Node's
 * zlib, which compresses on its own threads at the fastest level (a recording of large lists takes a quarter more
 * room, and half the time), so that the recording is compressed while the judge runs, and the reports and the
 * manifest are added last. Written beside the archive, renamed over it once whole: no run leaves part of one under its name.
 */
export class ArchiveWriter {
  private readonly pack: InstanceType<typeof import('tar').PackSync>;
  private readonly gzip: Gzip;
  private readonly written: Promise<void>;
  private readonly partial: string;
  /** The tar's pieces made since zlib was last given any. */
  private made: Buffer[] = [];

  constructor(private readonly file: string) {
    this.partial = path.join(path.dirname(file), PARTIAL_ARCHIVE);
    this.pack = new (tar().PackSync)({ portable: true, noMtime: true });
    this.gzip = createGzip({ level: 1 });
    this.written = pipeline(this.gzip, createWriteStream(this.partial, { mode: 0o644 }));
    this.written.catch(() => {}); // told where finish() is awaited
    this.pack.on('data', (chunk: Buffer) => this.take(chunk));
  }

  /**
   * The tar's small pieces (headers, small files, padding) go to zlib together, each hand-over a trip to its threads;
   * a large one goes as it is, never copied.
   */
  private take(chunk: Buffer): void {
    if (chunk.length < GATHERED_BYTES) return void this.made.push(chunk);
    this.compress();
    this.compressed(chunk);
  }

  /** Hands zlib the small pieces gathered. */
  private compress(): void {
    if (this.made.length === 0) return;
    const made = this.made.length === 1 ? this.made[0] : Buffer.concat(this.made);
    this.made = [];
    this.compressed(made);
  }

  private compressed(bytes: Buffer): void {
    // A stream that failed (a full disk) takes nothing more: finish() says why.
    if (!this.gzip.destroyed) this.gzip.write(bytes);
  }

  /** Adds these files, in this order. */
  add(files: BundleFiles): this {
    const { ReadEntry, Header } = tar();
    for (const [name, bytes] of files) {
      const entry = new ReadEntry(new Header({ path: name, type: 'File', mode: 0o644, size: bytes.length }));
      entry.end(bytes);
      this.pack.add(entry);
    }
    this.compress();
    return this;
  }

  /** Adds these last files and ends the archive; it stands under its name once whole. */
  async finish(last: BundleFiles): Promise<void> {
    this.add(last);
    this.pack.end();
    this.compress();
    if (!this.gzip.destroyed) this.gzip.end();
    try {
      await this.written;
      await rename(this.partial, this.file);
    } catch (error) {
      await rm(this.partial, { force: true });
      throw error;
    }
  }

  /** Stops writing: no archive, and no part of one, is left. */
  async abandon(): Promise<void> {
    this.gzip.destroy();
    await this.written.catch(() => {});
    rmSync(this.partial, { force: true });
  }
}

/** The manifest of a bundle, checked against its schema. */
export function manifestOf(files: BundleFiles): Manifest {
  const bytes = files.get(MANIFEST);
  if (!bytes) throw new BundleError(`${MANIFEST} in the bundle is missing`);
  return checkedFile<Manifest>(MANIFEST, bytes, schemaFile('bundle-manifest.schema.json'));
}

/** A JSON file of the bundle, checked against its schema where it is read; a BundleError that names the file otherwise. */
export function checkedFile<T>(name: string, bytes: Buffer, schema: URL): T {
  let parsed: unknown;
  const text = bytes.toString('utf8');
  if (nestsDeeperThan(text, FILE_DEPTH)) throw new BundleError(`${name} in the bundle nests deeper than ${FILE_DEPTH} levels, as no file of a run does`);
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BundleError(`${name} in the bundle is not JSON`);
  }
  const read = check<T>(schema, parsed);
  if (!read.ok) throw new BundleError(`${name} in the bundle does not match its schema: ${read.errors.join('; ')}`);
  return read.value;
}

/**
 * Every file whose bytes are not those the manifest names, every file it names that is missing, every file it does
 * not name. Names are the manifest's own keys: `constructor` or `__proto__` is listed only where the manifest lists
 * it, never by what every object inherits.
 */
export function digestProblems(files: BundleFiles, manifest: Manifest): string[] {
  const problems: string[] = [];
  for (const [name, digest] of Object.entries(manifest.files)) {
    const bytes = files.get(name);
    if (!bytes) problems.push(`${visible(name)}: missing, though the manifest names it`);
    else if (sha256(bytes) !== digest) problems.push(`${visible(name)}: changed; its SHA-256 is ${sha256(bytes)}, the manifest says ${digest}`);
  }
  for (const name of files.keys()) if (name !== MANIFEST && !Object.hasOwn(manifest.files, name)) problems.push(`${visible(name)}: not in the manifest`);
  return problems;
}

/** Every file a bundle holds or its manifest lists that no run of this suite writes (isBundleFile). */
export const strangeFiles = (files: BundleFiles, manifest: Manifest): string[] =>
  [...new Set([...files.keys(), ...Object.keys(manifest.files)])]
    .filter((name) => !isBundleFile(name))
    .map((name) => `${visible(name)}: no file a run writes in its bundle`);
