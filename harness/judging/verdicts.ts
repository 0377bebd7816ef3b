import type { Clause } from '../contracts/catalogue.ts';
import type { TargetConfig } from '../config/config.ts';
import type { KnownDeviation } from '../config/deviations.ts';
import type { Product } from '../config/product.ts';
import { clauseEvidence, shown, type ClauseEvidence } from './evidence.ts';
import { describeUnevaluable, describeViolations } from './format.ts';
import type { Recording } from '../recording/recording.ts';
import { redactValue, type Secrets } from '../secrets/redact.ts';
import type { Consistency } from './repeat.ts';
import { digestOf, judgedByThisSuite, type JudgedBy } from '../contracts/run-identity.ts';
import type { ClauseCheck, Outcome } from './verdict.ts';

/** The facts of one target's run that every report header needs, and its evidence bundle keeps. */
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
  /** The suite that judged. */
  judgedBy?: JudgedBy;
  /** The profiles the run claimed (CONFORMANCE_CLAIM); undefined when it claimed every one. */
  claim?: string[];
  /** A digest of the target's configuration, secrets left out. */
  configuration?: string;
}

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
      claim: config.claim,
      judgedBy: judgedByThisSuite(),
      configuration: digestOf(redactValue(configurationFacts(config), (text) => shown(text, secrets))),
    },
    (text) => shown(text, secrets),
  );
}

/** Every clause's run, in the catalogue's order, secrets replaced: what every report says of it. */
export function runsOf(catalogue: Clause[], checks: ClauseCheck[], secrets: Secrets): ClauseRun[] {
  const byClause = new Map(checks.map((c) => [c.clause, c]));
  return catalogue.flatMap((clause) => {
    const check = byClause.get(clause.id);
    if (!check) return [];
    return [clauseRunOf(clause, { outcome: check.outcome, evidence: clauseEvidence(check, secrets), crash: check.crash && shown(check.crash, secrets) })];
  });
}

/** The judge's word on one clause, in words: what each report says of it. */
export interface ClauseRun {
  clause: string;
  outcome: Outcome;
  evidence?: ClauseEvidence;
  /** Why: the violations or the failure in words, or the input a clause not exercised needs. */
  reason?: string;
}

/** A clause's run from the judge's verdict, with the words its outcome is told in. Verifying a bundle builds its report from these, as a run does. */
export function clauseRunOf(clause: Clause, verdict: { outcome: Outcome; evidence?: ClauseEvidence; crash?: string }): ClauseRun {
  const { outcome, evidence } = verdict;
  const reason =
    outcome === 'not-exercised'
      ? `needs ${clause.needs ?? 'input the target did not provide'}`
      : outcome === 'failed' && evidence
        ? describeViolations(clause, evidence)
        : outcome === 'errored' && evidence
          ? describeUnevaluable(clause, evidence, verdict.crash)
          : undefined;
  return { clause: clause.id, outcome, evidence, reason };
}
