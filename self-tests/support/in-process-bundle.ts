import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { create } from 'tar';
import { EXCHANGES, MANIFEST, manifestFile, REPORTS, sha256, writeBundleFolder, type BundleFiles, type Manifest } from '../../harness/evidence/bundle.ts';
import { bundleRecording, readBundleRecording } from '../../harness/evidence/bundle-recording.ts';
import { documentEntry } from '../../harness/evidence/bundle-document.ts';
import { documentFile } from '../../harness/contracts/document.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import type { RunFacts, ShardOfRun } from '../../harness/judging/verdicts.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import type { Variant } from '../../reference-server/server.ts';
import { rejudge } from '../../readers/verify.ts';
import { renderBadge } from '../../reporters/badge.ts';
import { renderCtrf } from '../../reporters/ctrf.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderJunit } from '../../reporters/junit.ts';
import { renderMarkdown } from '../../reporters/markdown.ts';
import { REFERENCE_INPUT, recordInProcess } from './in-process.ts';

// A bundle made in this process, as a run makes one: the reference target's answers redacted, the report this
// suite gives them, and a manifest of digests. A bundle's reader and verify are judged on it, and on copies
// changed one file at a time, in milliseconds; the black-box tests prove that a real run writes the same.

const ORIGIN = 'http://reference.invalid';
const CONFORMANCE = `${REPORTS}/conformance.json`;

/** What a bundle made in process may differ in: the target's name, a variant that answers (a fault's), a shard's place in its run, the time of its answers. */
export interface BundleOptions {
  name?: string;
  variant?: Variant;
  shard?: ShardOfRun;
  now?: number;
}

/** The reference target's bundle (or a variant's), its files by path. */
export function referenceBundle({ name = 'reference', variant, shard, now }: BundleOptions = {}): BundleFiles {
  const recording = recordInProcess(variant, REFERENCE_INPUT, now);
  const facts: RunFacts = {
    target: { name, baseUrl: ORIGIN, embedded: false },
    startedAt: recording.startedAt,
    requests: { count: recording.exchanges.length, methods: ['GET'] },
    deviations: [],
    ...(shard && { shard }),
  };
  const bundled = bundleRecording(recording, { ...REFERENCE_INPUT, baseUrl: ORIGIN }, createSecrets(REFERENCE_INPUT), facts);
  const exchanges = Buffer.from(JSON.stringify(bundled));
  const judgedOn = recording.startedAt.slice(0, 10);
  const report = rejudge(readBundleRecording(exchanges), { judgedOn } as Manifest, new Set(), shard?.shard);
  return bundleOf(exchanges, report, judgedOn);
}

/** A bundle of these exchanges and this report: its renderings, the request log, the document and a manifest, as a run writes them. */
export function bundleOf(exchanges: Buffer, report: ConformanceReport, judgedOn: string): BundleFiles {
  const bundled = readBundleRecording(exchanges);
  const facts = bundled.facts;
  const requests = bundled.exchanges.map((e) => ({ method: e.request.method, path: e.request.path, credential: e.request.credential, status: e.status }));
  // The renderings a run writes beside the report, each a pure function of it, and the request log.
  const files: BundleFiles = new Map([
    [EXCHANGES, exchanges],
    [CONFORMANCE, Buffer.from(`${JSON.stringify(report, null, 2)}\n`)],
    [`${REPORTS}/index.html`, Buffer.from(renderHtml(report))],
    [`${REPORTS}/summary.md`, Buffer.from(renderMarkdown(report))],
    [`${REPORTS}/badge.svg`, Buffer.from(renderBadge(report))],
    [`${REPORTS}/junit.xml`, Buffer.from(renderJunit([report]))],
    [`${REPORTS}/ctrf.json`, Buffer.from(renderCtrf(report))],
    [`${REPORTS}/requests.json`, Buffer.from(JSON.stringify({ startedAt: facts.startedAt, target: facts.target, requests }))],
    [documentEntry(path.basename(documentFile())), readFileSync(documentFile())],
  ]);
  const digests = Object.fromEntries([...files].map(([name, bytes]) => [name, sha256(bytes)]));
  const target = { name: facts.target.name, baseUrl: facts.target.baseUrl, embedded: facts.target.embedded };
  const about = { suite: report.suite, document: report.document, target, createdAt: bundled.startedAt, judgedOn, verdict: report.verdict };
  return files.set(MANIFEST, manifestFile(digests, about));
}

/** The manifest of a bundle, as a value. */
export const manifestValue = (files: BundleFiles): Manifest => JSON.parse(files.get(MANIFEST)!.toString('utf8'));

/**
 * A copy of the bundle with its manifest written anew: `edit` changes it, every digest is that of the file
 * it names, as someone who tampers with a bundle and knows how would leave it.
 */
export function resealed(files: BundleFiles, edit: (manifest: Manifest) => Manifest = (m) => m): BundleFiles {
  const others = new Map([...files].filter(([name]) => name !== MANIFEST));
  const digests = Object.fromEntries([...others].map(([name, bytes]) => [name, sha256(bytes)]));
  const manifest = edit({ ...manifestValue(files), files: digests });
  return new Map([...others, [MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2))]]);
}

/** A copy of the bundle with one file's bytes replaced and its digest changed to match. */
export const withFile = (files: BundleFiles, name: string, bytes: Buffer | string) => resealed(new Map([...files, [name, Buffer.from(bytes)]]));

const made: string[] = [];

/** A scratch folder of its own, removed by removeScratch(). */
export function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-bundle-'));
  made.push(dir);
  return dir;
}

/** Removes every scratch folder made so far. */
export function removeScratch(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The bundle written as a folder of its own. */
export function bundleFolder(files: BundleFiles): string {
  const dir = scratch();
  writeBundleFolder(dir, files);
  return dir;
}

/** The bundle written as an evidence.tar.gz in a folder of its own. */
export function bundleArchive(files: BundleFiles): string {
  const folder = bundleFolder(files);
  const file = path.join(scratch(), 'evidence.tar.gz');
  create({ file, cwd: folder, gzip: true, sync: true, portable: true }, [...files.keys()]);
  return file;
}
