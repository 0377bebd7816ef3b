import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  ArchiveWriter,
  BUNDLE_ARCHIVE,
  EXCHANGES,
  MANIFEST,
  REPORTS,
  REPORT_FILES,
  manifestFile,
  sha256,
  writeBundleFolder,
  type BundleFiles,
} from '../harness/evidence/bundle.ts';
import { BUNDLE_LIMITS } from '../harness/evidence/bundle-reader.ts';
import { documentEntry } from '../harness/evidence/bundle-document.ts';
import { documentFile } from '../harness/contracts/document.ts';
import { stagedEvidence } from '../harness/evidence/evidence-stage.ts';
import type { ConformanceReport } from './conformance-result.ts';

export interface BundleTarget {
  /** Where the target's reports are, and where the judging left its redacted exchanges. */
  reportDir: string;
  /** A folder to write the bundle to instead of the archive beside the reports. */
  evidenceDir?: string;
  replayOf?: string;
}

/**
 * Bundles the exchanges a target's verdicts rest on with its reports and a manifest of digests. Returns
 * where the bundle went, or why there is none (the run sent nothing, or stopped before its answers).
 */
export async function writeEvidenceBundle(
  report: ConformanceReport,
  target: BundleTarget,
  judgedOn: string,
  limits = BUNDLE_LIMITS,
): Promise<{ written?: string; none?: string; tooLarge?: string }> {
  const staged = await stagedEvidence(target.reportDir);
  if (!staged) return { none: 'no exchanges were recorded' };
  const files: BundleFiles = new Map();
  for (const name of REPORT_FILES) {
    const file = path.join(target.reportDir, name);
    if (existsSync(file)) files.set(`${REPORTS}/${name}`, readFileSync(file));
  }
  // The text the verdicts were judged against, so that a diff with a run judged by another text can name the
  // rows that changed; carried only when it is the text the report names.
  const text = readFileSync(documentFile());
  if (sha256(text) === report.document.sha256) files.set(documentEntry(path.basename(documentFile())), text);
  const digests = { [EXCHANGES]: staged.digest, ...Object.fromEntries([...files].map(([name, bytes]) => [name, sha256(bytes)])) };
  const manifest = manifestFile(digests, {
    suite: report.suite,
    document: report.document,
    target: { name: report.target.name, baseUrl: report.target.baseUrl, embedded: report.target.embedded },
    product: report.product,
    createdAt: new Date().toISOString(),
    judgedOn,
    verdict: report.verdict,
    replayOf: target.replayOf,
  });
  const written = target.evidenceDir ?? path.join(target.reportDir, BUNDLE_ARCHIVE);
  // A bundle larger than verify and a replay read is still written, and said so at once, not when it is read.
  const sizes = [statSync(path.join(staged.staging, EXCHANGES)).size, ...[...files.values()].map((b) => b.length)];
  const tooLarge =
    sizes[0] > limits.fileBytes || sizes.reduce((a, b) => a + b, 0) > limits.bundleBytes
      ? `it holds ${sizes[0]} bytes of exchanges, more than verify and a replay read (${limits.fileBytes} a file, ${limits.bundleBytes} in all): the reports stand, the bundle cannot be verified`
      : undefined;
  try {
    if (target.evidenceDir) {
      await staged.archive?.abandon();
      writeBundleFolder(target.evidenceDir, new Map([[MANIFEST, manifest], [EXCHANGES, readFileSync(path.join(staged.staging, EXCHANGES))], ...files]));
    } else {
      // The reports, then the manifest that names every other file: the exchanges are in the archive already.
      const archive = staged.archive ?? new ArchiveWriter(staged.staging, written).add([EXCHANGES]);
      await archive.finish(new Map([...files, [MANIFEST, manifest]]));
    }
  } finally {
    rmSync(staged.staging, { recursive: true, force: true });
  }
  return { written, tooLarge };
}
