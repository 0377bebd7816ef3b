import type { Clause } from '../harness/contracts/catalogue.ts';
import type { KnownDeviation } from '../harness/config/deviations.ts';
import type { ClauseEvidence, ClauseRun } from '../harness/judging/verdicts.ts';
import type { SpecDocument } from '../harness/contracts/document.ts';
import type { Product } from '../harness/config/product.ts';
import type { Consistency } from '../harness/judging/repeat.ts';

import type { Outcome as JudgedStatus } from '../harness/judging/violations.ts';
import type { Gate } from '../harness/config/gate.ts';
import type { ClauseChange } from './change.ts';
import type { ClauseHistory, HistoryAccount } from './history-account.ts';
import { claimedClauses, claimOf, type Claim, type ProfileDefinition } from './claim.ts';
import { countOf, type ClauseStatus, type Counts } from './counts.ts';
import type { Confirmation } from '../harness/judging/confirmation-report.ts';
import { isQuarantine } from '../harness/config/quarantine.ts';
import { quarantineDebt, quarantineState, type QuarantineDebt } from './quarantine.ts';

export type { ClauseRun, ClauseStatus, JudgedStatus };
/**
 * pass: every MUST clause of the catalogue judged and met (known deviations aside); fail: a MUST clause
 * violated; error: no verdict possible (errored clauses, an unreachable target, an interrupted run);
 * partial: judged in part only; incomplete: the run has not ended (or died before its reporter).
 */
export type Verdict = 'pass' | 'fail' | 'error' | 'partial' | 'incomplete';

/** The exit code a verdict gives the command, the same for every reporter the user adds or replaces. */
export const EXIT_CODE: Record<Verdict, number> = { pass: 0, fail: 1, error: 3, partial: 3, incomplete: 3 };

export interface TargetInfo {
  name: string;
  baseUrl: string;
  embedded: boolean;
  /** What the target said of its own version (version headers, Server), where it said anything. */
  reportedVersion?: Record<string, string>;
}

export interface RunMeta {
  suiteVersion: string;
  contractsHash: string;
  /** The document the contracts were derived from. */
  document: SpecDocument;
  /** The product under test, as its vendor states it. */
  product?: Product;
  /** Set when the run judged an evidence bundle's exchanges instead of asking a target. */
  replay?: { bundle: string };
  target: TargetInfo;
  /** What the inventory says of the target (a fleet file's tags), secrets hidden. */
  tags?: Record<string, string>;
  startedAt: string;
  durationMs: number;
  /** Playwright's status of the whole run. */
  runStatus: 'passed' | 'failed' | 'timedout' | 'interrupted';
  /** Errors outside any test (configuration, global setup, web server). */
  runErrors: string[];
  deviations: KnownDeviation[];
  /** Deviations of the file that name versions the product's is not in, or not known to be in: they excuse nothing. */
  deviationsSetAside?: { clause: string; versions: string }[];
  /** The day the run is judged on, for deviation expiry (YYYY-MM-DD). */
  today: string;
  requests?: { count: number; methods: string[] };
  /** "i/n" when this run is one shard of several. */
  shard?: string;
  /** Repeat mode (CONFORMANCE_REPEAT): whether every round was answered alike, and latencies. */
  consistency?: Consistency;
  /** The catalogue's profiles (contracts/profiles.yaml). */
  profiles: ProfileDefinition[];
  /** The profiles the run claims (CONFORMANCE_CLAIM); undefined claims every one. */
  claim?: string[];
  /** What each placeholder of a curl line stands for: the setting that gives the secret. */
  placeholders?: Placeholder[];
}

/** A placeholder of the reports ($TOKEN, $SIGNUP_TOKEN_2, ...) and the setting that gives the secret it stands for. */
export interface Placeholder {
  placeholder: string;
  setting: string;
}

export type DeviationState = 'applied' | 'no-longer-needed' | 'expired' | 'not-applicable';

export interface ClauseResult {
  id: string;
  section: string;
  level: Clause['level'];
  title: string;
  status: ClauseStatus;
  /** The profile of a MUST clause (contracts/profiles.yaml). */
  profile?: string;
  reason?: string;
  deviation?: KnownDeviation & { state: DeviationState };
  evidence?: ClauseEvidence;
  /** Set when the run keeps a history (CONFORMANCE_HISTORY): what this outcome is against the target's earlier runs. A label, never a status. */
  transition?: ClauseHistory['transition'];
  /** Its outcomes in the earlier runs `history.runs` lists, for the page's strip. */
  recent?: ClauseHistory['recent'];
  /** Set when its failure was confirmed (CONFORMANCE_CONFIRM): how often it failed, and the answers that differed side by side. */
  confirmation?: Confirmation;
}

export type { Counts };

/** The counts of the catalogue's MUST clauses, and how many it has: the one denominator of every rendering. */
export type MustCounts = Counts & { total: number };

/** 2: INFO clauses are observed, never passed, and counted apart (summary.observed); must.total is the catalogue's. */
export const REPORT_VERSION = 2;

export interface ConformanceReport {
  reportVersion: typeof REPORT_VERSION;
  suite: { name: string; version: string; contractsHash: string };
  document: SpecDocument;
  target: TargetInfo;
  product?: Product;
  /** Set when the run judged an evidence bundle's exchanges (CONFORMANCE_REPLAY), not a live target. */
  replay?: { bundle: string };
  /** What the inventory says of the target (a fleet file's tags: region, tier, plan…); the matrix's scores are given by them. */
  tags?: Record<string, string>;
  startedAt: string;
  durationMs: number;
  verdict: Verdict;
  summary: Counts & { total: number; must: MustCounts };
  /** What the verdict claims: the profiles claimed, and each profile's status. */
  claim: Claim;
  /** What each placeholder of a curl line stands for, so that a copied line sends the same request. */
  placeholders?: Placeholder[];
  clauses: ClauseResult[];
  /** Deviations of the file that name versions the product's is not in, or not known to be in: they excuse nothing. */
  deviationsSetAside?: { clause: string; versions: string }[];
  requests?: RunMeta['requests'];
  shard?: string;
  consistency?: Consistency;
  completed: boolean;
  /** Set when the run was stopped before it ended (a signal, or -x): no verdict, whatever it had found. */
  interrupted?: true;
  errors: string[];
  /** Set when the run was given a baseline (CONFORMANCE_BASELINE): what changed since, and the gate the exit code followed. */
  baseline?: BaselineComparison;
  /** Set when the run keeps a history (CONFORMANCE_HISTORY): the earlier runs its clauses' transitions were set against. */
  history?: HistoryAccount;
  /** Set when known deviations quarantine clauses (kind: flaky): the quarantine's debt. */
  quarantine?: QuarantineDebt;
}

/**
 * A target's run compared with a baseline run, as `admin-api-conformance diff` compares two runs
 * (reporters/baseline.ts). It changes nothing of the verdict: the gate (reporters/gate.ts) reads it.
 */
export interface BaselineComparison {
  /** The baseline as given: a report folder, a conformance.json or an evidence bundle. */
  source: string;
  /** What the run's exit code follows (CONFORMANCE_GATE): any MUST violation, or only what regressed. */
  gate: Gate;
  /**
   * The baseline's target this one is compared with, its base URL (unless the embedded target's, whose port changes
   * every run) and its verdict there; absent when the baseline has none to pair with it.
   */
  compared?: { target: string; baseUrl?: string; verdict: Verdict };
  /** How the baseline's judge differs from this run's (another suite, contracts or text of the document); empty when it is the same. */
  judgeChanged: string[];
  changes: ClauseChange[];
  unchanged: number;
  /** How many changes are regressions (reporters/change.ts REGRESSIONS). */
  regressions: number;
}

/**
 * A report as the renderings take it: a run's, or that of a configuration the run refused, which names no
 * target (none was read) rather than invent one.
 */
export type ReportView = Omit<ConformanceReport, 'target'> & { target?: TargetInfo };

/** A clause without a run: why its verdict is missing. */
function unrun(meta: Pick<RunMeta, 'runStatus' | 'runErrors'>): { status: 'errored' | 'not-judged'; reason: string } {
  if (meta.runStatus === 'interrupted') return { status: 'not-judged', reason: 'the run was interrupted before its test' };
  if (meta.runErrors.length > 0) return { status: 'errored', reason: `the run errored: ${meta.runErrors[0].split('\n')[0]}` };
  if (meta.runStatus === 'timedout') return { status: 'not-judged', reason: 'its test did not run: the run ended timedout' };
  return { status: 'not-judged', reason: 'its test was left out of this run (--grep, --grep-invert or a test filter)' };
}

function deviationState(result: ClauseResult, deviation: KnownDeviation, today: string): DeviationState {
  const { status } = result;
  if (isQuarantine(deviation)) return quarantineState(status, result.confirmation, deviation, today);
  if (status === 'passed') return 'no-longer-needed';
  if (status !== 'failed') return 'not-applicable';
  return deviation.expires !== undefined && deviation.expires <= today ? 'expired' : 'applied';
}

/** A known deviation excuses a failure until it expires; it never excuses an error or a crash. */
function withDeviation(result: ClauseResult, deviation: KnownDeviation | undefined, today: string): ClauseResult {
  if (!deviation) return result;
  const state = deviationState(result, deviation, today);
  return { ...result, status: state === 'applied' ? 'known-deviation' : result.status, deviation: { ...deviation, state } };
}

/** The counts of a report's clauses, as its summary gives them. */
export function summaryOf(clauses: ClauseResult[]): ConformanceReport['summary'] {
  const must = clauses.filter((c) => c.level === 'MUST');
  return { ...countOf(clauses), total: clauses.length, must: { ...countOf(must), total: must.length } };
}

/** The document leaves an INFO clause open: what it saw is an observation, never a pass. */
const asObserved = (level: Clause['level'], judged: { status: JudgedStatus | 'not-judged'; reason?: string }) =>
  level === 'INFO' && judged.status === 'passed' ? { ...judged, status: 'observed' as const } : judged;

// Violations win over errors, wherever they are; a pass claims only the claimed profiles, every MUST clause of
// which must have been exercised: one left out or not exercised is no pass.
function verdictOfCounts(must: Counts, all: Counts, claimed: Counts, completed: boolean, consistent: boolean): Verdict {
  if (must.failed > 0) return 'fail';
  // Nothing judged is no pass: a run that exercised no requirement says nothing about the target.
  if (all.errored > 0 || !completed || claimed.passed + claimed.knownDeviations === 0) return 'error';
  // A target that answers the same request differently has no single verdict.
  if (!consistent) return 'error';
  return claimed.notJudged > 0 || claimed.notExercised > 0 ? 'partial' : 'pass';
}

/**
 * The verdict of a report's clauses and facts, as the report gives it: the gate (reporters/gate.ts) asks it
 * again of the same report with the failures its baseline had set aside.
 */
export function verdictOf(report: Pick<ConformanceReport, 'clauses' | 'claim' | 'completed' | 'interrupted' | 'consistency'>): Verdict {
  // A run stopped halfway has no verdict: what it found before is listed, and says nothing of the rest.
  if (report.interrupted) return 'incomplete';
  const summary = summaryOf(report.clauses);
  const claimed = countOf(claimedClauses(report.clauses, report.claim));
  return verdictOfCounts(summary.must, summary, claimed, report.completed, report.consistency?.consistent ?? true);
}

/** Each clause of the catalogue as a report gives it: its run's outcome, or why it has none; a known deviation applied. */
export function clauseResults(catalogue: Clause[], runs: ClauseRun[], meta: Pick<RunMeta, 'deviations' | 'today' | 'runStatus' | 'runErrors'>): ClauseResult[] {
  const byClause = new Map(runs.map((r) => [r.clause, r]));
  const deviations = new Map(meta.deviations.map((d) => [d.clause, d]));
  return catalogue.map((c): ClauseResult => {
    const run = byClause.get(c.id);
    const result: ClauseResult = {
      id: c.id,
      section: c.section,
      level: c.level,
      title: c.title,
      profile: c.profile,
      ...asObserved(c.level, run ? { status: run.outcome, reason: run.reason } : unrun(meta)),
      evidence: run?.evidence,
      ...(run?.confirmation && { confirmation: run.confirmation }),
    };
    return withDeviation(result, deviations.get(c.id), meta.today);
  });
}

/** The conformance report: a pure function of the catalogue, the clauses' runs and the run's facts. */
export function buildConformanceReport(catalogue: Clause[], runs: ClauseRun[], meta: RunMeta): ConformanceReport {
  const clauses = clauseResults(catalogue, runs, meta);
  const summary = summaryOf(clauses);
  const claim = claimOf(clauses, meta.profiles, meta.claim);
  const interrupted = meta.runStatus === 'interrupted';
  const completed = meta.runErrors.length === 0 && meta.runStatus !== 'interrupted' && meta.runStatus !== 'timedout';
  const verdict = verdictOf({ clauses, claim, completed, consistency: meta.consistency, ...(interrupted && { interrupted: true as const }) });
  return {
    reportVersion: REPORT_VERSION,
    suite: { name: 'admin-api-conformance', version: meta.suiteVersion, contractsHash: meta.contractsHash },
    document: meta.document,
    target: meta.target,
    product: meta.product,
    replay: meta.replay,
    ...(meta.tags && { tags: meta.tags }),
    startedAt: meta.startedAt,
    durationMs: meta.durationMs,
    verdict,
    summary,
    claim,
    placeholders: meta.placeholders,
    clauses,
    ...(meta.deviationsSetAside?.length && { deviationsSetAside: meta.deviationsSetAside }),
    requests: meta.requests,
    shard: meta.shard,
    consistency: meta.consistency,
    completed,
    ...(interrupted && { interrupted: true as const }),
    errors: meta.runErrors,
    ...withQuarantine(clauses),
  };
}

/** The quarantine's debt, where known deviations quarantine clauses. */
function withQuarantine(clauses: ClauseResult[]): { quarantine?: QuarantineDebt } {
  const debt = quarantineDebt(clauses);
  return debt ? { quarantine: debt } : {};
}

/**
 * The report a run leaves in its folder before it judges anything: verdict incomplete, every clause not
 * judged. A run that dies before its reporter leaves this, never an earlier run's verdict.
 */
export function incompleteReport(
  catalogue: Clause[],
  meta: Pick<RunMeta, 'suiteVersion' | 'contractsHash' | 'document' | 'product' | 'target' | 'startedAt' | 'profiles' | 'claim'>,
): ConformanceReport {
  const today = meta.startedAt.slice(0, 10);
  const report = buildConformanceReport(catalogue, [], { ...meta, durationMs: 0, runStatus: 'passed', runErrors: [], deviations: [], today });
  const clauses = report.clauses.map((c) => ({ ...c, reason: 'the run has not ended, or ended before its report' }));
  return { ...report, verdict: 'incomplete', completed: false, clauses };
}
