import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  BUNDLE_ARCHIVE,
  EXCHANGES,
  REPORTS,
  STAGED_RECORDING,
  withManifest,
  writeBundleArchive,
  writeBundleFolder,
  type BundleFiles,
} from '../harness/bundle.ts';
import type { ConformanceReport } from './conformance-result.ts';

/** The renderings of a run that go into its bundle, as they were written beside it. */
const REPORT_FILES = ['conformance.json', 'index.html', 'summary.md', 'badge.svg', 'requests.json'];

export interface BundleTarget {
  /** Where the target's reports are, and where global setup left its redacted exchanges. */
  reportDir: string;
  /** A folder to write the bundle to instead of the archive beside the reports. */
  evidenceDir?: string;
  /** The run's JUnit report, when it has one for this target alone. */
  junit?: string;
  replayOf?: string;
}

/**
 * Bundles the exchanges a target's verdicts rest on with its reports and a manifest of digests. Returns
 * where the bundle went, or why there is none (the run sent nothing, or stopped before its answers).
 */
export async function writeEvidenceBundle(report: ConformanceReport, target: BundleTarget, judgedOn: string): Promise<{ written?: string; none?: string }> {
  const staged = path.join(target.reportDir, STAGED_RECORDING);
  if (!existsSync(staged)) return { none: 'no exchanges were recorded' };
  const files: BundleFiles = new Map([[EXCHANGES, readFileSync(staged)]]);
  for (const name of REPORT_FILES) {
    const file = path.join(target.reportDir, name);
    if (existsSync(file)) files.set(`${REPORTS}/${name}`, readFileSync(file));
  }
  if (target.junit && existsSync(target.junit)) files.set(`${REPORTS}/junit.xml`, readFileSync(target.junit));
  const bundle = withManifest(files, {
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
  if (target.evidenceDir) writeBundleFolder(target.evidenceDir, bundle);
  else await writeBundleArchive(written, bundle);
  rmSync(staged, { force: true });
  return { written };
}
