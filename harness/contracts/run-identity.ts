import { createHash } from 'node:crypto';
import { contractsHash } from './contracts.ts';
import { specDocument } from './document.ts';
import { suiteVersionFrom } from './suite-package.ts';

// The suite that judges: its version, contracts and document, named in every report and bundle, so that a
// bundle is judged again only by the suite that made it.

/** This suite's version, its package's, in every report, bundle and request it sends (its User-Agent). */
export const SUITE_VERSION = suiteVersionFrom(__dirname);

/** The suite that judged, and what it judged by. */
export interface JudgedBy {
  suiteVersion: string;
  contractsHash: string;
  documentSha256: string;
}

export const judgedByThisSuite = (): JudgedBy => ({ suiteVersion: SUITE_VERSION, contractsHash: contractsHash(), documentSha256: specDocument().sha256 });

/** The SHA-256 of the configuration facts as JSON (already redacted by the caller): a signed run's attestation names it. */
export const digestOf = (facts: unknown): string => createHash('sha256').update(JSON.stringify(facts)).digest('hex');
