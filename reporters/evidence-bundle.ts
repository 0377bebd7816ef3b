import { readFileSync } from 'node:fs';
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
import { REQUEST_LOG } from '../harness/evidence/request-log.ts';
import type { ConformanceReport } from './conformance-result.ts';

export interface BundleTarget {
  /** Where the target's reports are, and where the judging left its redacted exchanges. */
  reportDir: string;
  /** A folder to write the bundle to instead of the archive beside the reports. */
  evidenceDir?: string;
  replayOf?: string;
  /** The report files rendered beside the bundle (reporters/artifacts.ts), by name, as they were written. */
  reports: [string, string][];
}

/** The document's text, read once: the copy shipped with the suite does not change while it runs. */
let shippedDocument: { file: string; text: Buffer } | undefined;
function documentText(): { file: string; text: Buffer } {
  const file = documentFile();
  if (shippedDocument?.file !== file) shippedDocument = { file, text: readFileSync(file) };
  return shippedDocument;
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
  const rendered = new Map<string, string>(target.reports);
  if (staged.requestLog !== undefined) rendered.set(REQUEST_LOG, staged.requestLog);
  const files: BundleFiles = new Map();
  for (const name of REPORT_FILES) {
    const text = rendered.get(name);
    if (text !== undefined) files.set(`${REPORTS}/${name}`, Buffer.from(text));
  }
  // The text the verdicts were judged against, so that a diff with a run judged by another text can name the
  // rows that changed; carried only when it is the text the report names.
  const document = documentText();
  if (sha256(document.text) === report.document.sha256) files.set(documentEntry(path.basename(document.file)), document.text);
  const { exchanges } = staged;
  const digests = { [EXCHANGES]: exchanges.digest, ...Object.fromEntries([...files].map(([name, bytes]) => [name, sha256(bytes)])) };
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
  const sizes = [exchanges.bytes.length, ...[...files.values()].map((b) => b.length)];
  const tooLarge =
    sizes[0] > limits.fileBytes || sizes.reduce((a, b) => a + b, 0) > limits.bundleBytes
      ? `it holds ${sizes[0]} bytes of exchanges, more than verify and a replay read (${limits.fileBytes} a file, ${limits.bundleBytes} in all): the reports stand, the bundle cannot be verified`
      : undefined;
  if (target.evidenceDir) {
    await staged.archive?.abandon();
    writeBundleFolder(target.evidenceDir, new Map([[EXCHANGES, exchanges.bytes], ...files, [MANIFEST, manifest]]));
  } else {
    // The exchanges first (in the archive already when it was started), then the reports, and last the manifest that
    // names every other file.
    const archive = staged.archive ?? new ArchiveWriter(written).add(new Map([[EXCHANGES, exchanges.bytes]]));
    await archive.finish(new Map([...files, [MANIFEST, manifest]]));
  }
  return { written, tooLarge };
}
