import { createHash } from 'node:crypto';
import type { TargetConfig } from './config.ts';
import { contractsHash } from './contracts.ts';
import { specDocument } from './document.ts';

// What the shards of one run share, and shards of two runs need not: the suite that judged (its version,
// contracts and document) and the target's configuration. A merge of shards that differ in it would judge
// one target by another's answers.

/** This suite's version, in every report, bundle and request it sends (its User-Agent). */
export const SUITE_VERSION = '0.1.0';

/** The suite that judged, and what it judged by. */
export interface JudgedBy {
  suiteVersion: string;
  contractsHash: string;
  documentSha256: string;
}

export const judgedByThisSuite = (): JudgedBy => ({ suiteVersion: SUITE_VERSION, contractsHash: contractsHash(), documentSha256: specDocument().sha256 });

/**
 * What of a target's configuration shapes its verdicts, secrets left out: which target (the embedded one
 * by name alone, as its port changes from run to run), what the request plan asks with (how many signup
 * tokens, which forbidden credentials), the limits, the deviations and the product.
 */
export function configurationFacts(config: TargetConfig): unknown {
  return {
    target: config.embedded ? { name: config.name, embedded: true } : { name: config.name, baseUrl: config.baseUrl, embedded: false },
    replay: config.replay !== undefined,
    plan: {
      signupTokens: config.signupTokens.length,
      forbidden: config.forbidden.map((f) => [f.credential, f.operations]),
      openapiPath: config.openapiPath ?? null,
    },
    limits: { timeoutMs: config.timeoutMs, maxBodyBytes: config.maxBodyBytes, repeat: config.repeat, concurrency: config.concurrency },
    deviations: config.deviations,
    product: config.product ?? null,
  };
}

/** A short digest of the configuration facts (already redacted by the caller). */
export const digestOf = (facts: unknown): string => createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 16);
