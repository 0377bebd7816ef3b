import type { TargetConfig } from './config.ts';
import type { KnownDeviation } from './deviations.ts';
import type { Product } from './product.ts';
import { clauseEvidence, shown, type ClauseEvidence } from './evidence.ts';
import type { Recording } from './recording.ts';
import { redactValue, type Secrets } from './redact.ts';
import type { Consistency } from './repeat.ts';
import { configurationFacts, digestOf, judgedByThisSuite, type JudgedBy } from './run-identity.ts';
import type { ClauseCheck, Outcome } from './verdict.ts';

/** The facts of one run every report header needs; attached to each test so that merged shards keep them. */
export interface RunFacts {
  target: { name: string; baseUrl: string; embedded: boolean; reportedVersion?: Record<string, string> };
  startedAt: string;
  requests: { count: number; methods: string[] };
  deviations: KnownDeviation[];
  /** Repeat mode: whether every round was answered alike, and latencies. */
  consistency?: Consistency;
  /** The product under test, as its vendor states it. */
  product?: Product;
  /** Set when the run judged an evidence bundle's exchanges instead of asking a target (a replay). */
  replay?: { bundle: string };
  /** The suite that judged: a merge takes only shards judged by the suite that merges them. */
  judgedBy?: JudgedBy;
  /** A digest of the target's configuration, secrets left out (harness/run-identity.ts): one run's shards share it. */
  configuration?: string;
}

/** The judge's word on one clause, secrets replaced: all a test needs to replay it. */
export interface ClauseVerdict {
  outcome: Outcome;
  evidence: ClauseEvidence;
  /** Why the check itself broke, when it did. */
  crash?: string;
}

export interface TargetVerdicts {
  facts: RunFacts;
  clauses: Record<string, ClauseVerdict>;
}

export function runFacts(config: TargetConfig, recording: Recording, secrets: Secrets, consistency?: Consistency): RunFacts {
  const { exchanges } = recording;
  return redactValue(
    {
      target: {
        name: config.name,
        baseUrl: config.baseUrl,
        embedded: config.embedded,
        reportedVersion: exchanges.find((e) => e.versionHeaders)?.versionHeaders,
      },
      startedAt: recording.startedAt,
      requests: { count: exchanges.length, methods: [...new Set(exchanges.map((e) => e.request.method))] },
      deviations: config.deviations,
      consistency,
      product: config.product,
      judgedBy: judgedByThisSuite(),
      configuration: digestOf(redactValue(configurationFacts(config), (text) => shown(text, secrets))),
    },
    (text) => shown(text, secrets),
  );
}

export function verdictsOf(checks: ClauseCheck[], secrets: Secrets, facts: RunFacts): TargetVerdicts {
  const clauses = Object.fromEntries(
    checks.map((c) => [c.clause, { outcome: c.outcome, evidence: clauseEvidence(c, secrets), crash: c.crash && shown(c.crash, secrets) }]),
  );
  return { facts, clauses };
}
