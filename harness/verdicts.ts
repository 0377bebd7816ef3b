import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TargetConfig } from './config.ts';
import type { KnownDeviation } from './deviations.ts';
import type { Product } from './product.ts';
import { clauseEvidence, shown, type ClauseEvidence } from './evidence.ts';
import type { Recording } from './recording.ts';
import { redactValue, type Secrets } from './redact.ts';
import type { Consistency } from './repeat.ts';
import type { ClauseCheck, Outcome } from './verdict.ts';

/** Where global setup leaves the verdicts for the workers: a path, inherited through the environment. */
export const VERDICTS_VARIABLE = 'ADMIN_API_CONFORMANCE_VERDICTS';

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

/** Writes the verdicts of every target (by Playwright project name) to a private temporary folder. They hold no secret. */
export function saveVerdicts(byProject: Record<string, TargetVerdicts>): { file: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const file = path.join(dir, 'verdicts.json');
  writeFileSync(file, JSON.stringify(byProject), { mode: 0o600 });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function loadVerdicts(file: string): Record<string, TargetVerdicts> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, TargetVerdicts>;
}
