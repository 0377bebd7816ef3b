import { existsSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_ARCHIVE, REPORTS, sha256 } from '../harness/evidence/bundle.ts';
import { BundleError } from '../harness/evidence/bundle-error.ts';
import { readBundle } from '../harness/evidence/bundle-reader.ts';
import { verifyBundle, type Verification } from './verify.ts';

// A report file taken only as the evidence bundle beside it holds it: the bundle is judged again as verify judges
// it (its digests, every clause from its exchanges, its renderings), and its copy of the report is the file's every
// byte. A report changed after its run, or without a bundle, is no one's verdict; a merge and the ratchet's baseline
// take none other.

/** How a report is not the one a verified bundle beside it holds; `kind` lets each reader say it in its own words. */
export class BundleBesideError extends Error {
  constructor(
    readonly kind: 'none' | 'unreadable' | 'differs' | 'changed' | 'other-judge',
    /** The bundle looked for, beside the report. */
    readonly bundle: string,
    /** What is wrong: the first difference, or why the bundle cannot be read. */
    readonly detail: string,
  ) {
    super(`${bundle}: ${detail}`);
  }
}

/**
 * The verification of the bundle beside a report file (its folder's evidence.tar.gz), once it holds and holds the
 * report's bytes. A bundle another suite made is held to its digests alone, as a run given as a bundle is
 * (report-file.ts): its verdicts are another judge's, which a diff names and the ratchet sets nothing aside for;
 * `judged`, it is refused, since a verdict that is taken as it stands (a merge's) must be one this suite judged again.
 */
export function bundleBeside(reportFile: string, reportBytes: Buffer, { judged = false } = {}): Verification {
  const bundle = path.join(path.dirname(reportFile), BUNDLE_ARCHIVE);
  if (!existsSync(bundle)) throw new BundleBesideError('none', bundle, 'there is no evidence bundle beside the report');
  let verification: Verification;
  let copy: Buffer | undefined;
  try {
    const files = readBundle(bundle);
    verification = verifyBundle(files);
    copy = files.get(`${REPORTS}/conformance.json`);
  } catch (error) {
    if (error instanceof BundleError) throw new BundleBesideError('unreadable', bundle, error.message);
    throw error;
  }
  const [difference] = verification.differences;
  if (difference !== undefined) throw new BundleBesideError('differs', bundle, difference);
  if (judged && verification.refused !== undefined) throw new BundleBesideError('other-judge', bundle, verification.refused);
  if (copy === undefined || sha256(copy) !== sha256(reportBytes))
    throw new BundleBesideError('changed', bundle, `${reportFile} is not the report its evidence bundle holds: it was changed after its run`);
  return verification;
}
