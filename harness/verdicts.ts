import type { Clause } from './catalogue.ts';
import type { TargetConfig } from './config.ts';
import type { KnownDeviation } from './deviations.ts';
import type { Product } from './product.ts';
import { clauseEvidence, shown, type ClauseEvidence } from './evidence.ts';
import { describeUnevaluable, describeViolations } from './format.ts';
import type { Recording } from './recording.ts';
import { redactValue, type Secrets } from './redact.ts';
import type { Consistency } from './repeat.ts';
import { configurationFacts, digestOf, judgedByThisSuite, type JudgedBy } from './run-identity.ts';
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
  /** A digest of the target's configuration, secrets left out (harness/run-identity.ts). */
  configuration?: string;
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
