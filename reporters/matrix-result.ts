import type { Shard } from '../harness/config/targets.ts';
import { failureSignatures, type FailureSignature } from './fleet.ts';
import { REPORT_VERSION, type ClauseStatus, type ConformanceReport, type Counts, type MustCounts, type Verdict } from './conformance-result.ts';

/** One run over several targets: each target's verdict and a target × clause matrix. */
export interface MatrixReport {
  reportVersion: typeof REPORT_VERSION;
  kind: 'matrix';
  suite: ConformanceReport['suite'];
  document: ConformanceReport['document'];
  startedAt: string;
  durationMs: number;
  verdict: Verdict;
  /** Set when its verdict is incomplete because a target's run was stopped before it ended: its headline says INTERRUPTED, as that target's does. */
  interrupted?: true;
  /** Clause outcomes added up over every target. */
  summary: Counts & { total: number; must: MustCounts };
  /** Each target's verdict and what it claims (the profiles of its claim, every one unless narrowed). */
  targets: {
    name: string;
    baseUrl: string;
    verdict: Verdict;
    /** Set when the target's run was stopped before it ended, as its own report says. */
    interrupted?: true;
    claim?: string[];
    summary: ConformanceReport['summary'];
    report: string;
    /** When the target's answers were taken, and the product it states: a collected fleet's results differ in both. */
    startedAt?: string;
    product?: ConformanceReport['product'];
    /** The MUST clauses it fails, by id. */
    failed?: string[];
    /** Why it has no verdict, where its run did not complete (no answer, a refused token): its first error, in place of every clause it could not judge. */
    reason?: string;
    /** Why its result is stale, where a collection found it so (admin-api-conformance merge --stale-after). */
    stale?: string;
  }[];
  /**
   * The gate the run's exit code followed, where it was the ratchet (CONFORMANCE_GATE=regressions): the exit code,
   * and that line in words. The verdict stays what the targets did.
   */
  gate?: { exitCode: number; text: string };
  /** When the results were collected into this report (a merge): each target's age is counted to it. */
  collectedAt?: string;
  /** The failures the targets share, each once with the targets that show it (reporters/fleet.ts). */
  signatures?: FailureSignature[];
  clauses: { id: string; section: string; level: string; title: string; status: ClauseStatus; byTarget: Record<string, ClauseStatus> }[];
  completed: boolean;
  errors: string[];
  /** "i/n" when this run judged one share of the run's targets (CONFORMANCE_SHARD); merged, the shares' reports give the run's. */
  shard?: string;
  /** Every target of the run, by name, those of the other shards included: set on a shard's report. */
  runTargets?: string[];
  /** The run's identity, shared by its shards (CONFORMANCE_RUN_ID or the CI engine's): set on a shard's report. */
  run?: string;
}

// The row's status is the worst of its cells: one failing target is enough for the clause to fail.
const SEVERITY: ClauseStatus[] = ['failed', 'errored', 'not-judged', 'known-deviation', 'not-exercised', 'observed', 'passed'];
const worst = (statuses: ClauseStatus[]) => SEVERITY.find((s) => statuses.includes(s)) ?? 'not-exercised';

function add(a: Counts, b: Counts): Counts {
  return {
    passed: a.passed + b.passed,
    failed: a.failed + b.failed,
    errored: a.errored + b.errored,
    notExercised: a.notExercised + b.notExercised,
    knownDeviations: a.knownDeviations + b.knownDeviations,
    notJudged: a.notJudged + b.notJudged,
    observed: a.observed + b.observed,
  };
}

const ZERO: Counts = { passed: 0, failed: 0, errored: 0, notExercised: 0, knownDeviations: 0, notJudged: 0, observed: 0 };

/**
 * The matrix passes only when every target passes; a violation anywhere wins over every lack of a verdict. A
 * shard of several judged part of the run: it fails on a violation, and has no verdict of the run's otherwise
 * (partial).
 */
export function matrixVerdict(verdicts: Verdict[], shard?: Shard): Verdict {
  if (verdicts.includes('fail')) return 'fail';
  if (verdicts.length === 0) return 'error';
  const verdict = (['error', 'incomplete', 'partial'] as const).find((v) => verdicts.includes(v)) ?? 'pass';
  return shard && shard.total > 1 && verdict === 'pass' ? 'partial' : verdict;
}

/** The matrix of a run over several targets: a pure function of their reports. */
export function buildMatrixReport(reports: { report: ConformanceReport; path: string }[], durationMs: number, shard?: Shard): MatrixReport {
  const first = reports[0].report;
  const verdict = matrixVerdict(
    reports.map((r) => r.report.verdict),
    shard,
  );
  const interrupted = verdict === 'incomplete' && reports.some((r) => r.report.interrupted);
  return {
    reportVersion: REPORT_VERSION,
    kind: 'matrix',
    suite: first.suite,
    document: first.document,
    startedAt: reports.map((r) => r.report.startedAt).sort()[0],
    durationMs,
    verdict,
    ...(interrupted && { interrupted: true as const }),
    summary: {
      ...reports.reduce((sum, r) => add(sum, r.report.summary), ZERO),
      total: reports.reduce((sum, r) => sum + r.report.summary.total, 0),
      must: { ...reports.reduce((sum, r) => add(sum, r.report.summary.must), ZERO), total: reports.reduce((sum, r) => sum + r.report.summary.must.total, 0) },
    },
    targets: reports.map(({ report, path }) => ({
      name: report.target.name,
      baseUrl: report.target.baseUrl,
      verdict: report.verdict,
      ...(report.interrupted && { interrupted: true as const }),
      claim: report.claim.profiles,
      summary: report.summary,
      report: path,
      startedAt: report.startedAt,
      product: report.product,
      failed: report.clauses.filter((c) => c.status === 'failed').map((c) => c.id),
      ...(!report.completed && report.errors.length > 0 && { reason: report.errors[0] }),
    })),
    signatures: failureSignatures(reports.map((r) => r.report)),
    clauses: first.clauses.map((c) => {
      const byTarget = Object.fromEntries(
        reports.map(({ report }) => [report.target.name, report.clauses.find((x) => x.id === c.id)?.status ?? 'not-exercised']),
      );
      return { id: c.id, section: c.section, level: c.level, title: c.title, status: worst(Object.values(byTarget)), byTarget };
    }),
    completed: reports.every((r) => r.report.completed),
    errors: reports.flatMap((r) => r.report.errors.map((e) => `${r.report.target.name}: ${e}`)),
    ...(shard && { shard: `${shard.current}/${shard.total}`, runTargets: shard.runTargets, run: shard.run }),
  };
}
