import type { Shard } from '../harness/config/targets.ts';
import { addSignatures, sortedSignatures, type FailureSignature, type SignatureGroups } from './fleet.ts';
import { ScoreTally, type ProfileScore } from './scores.ts';
import {
  REPORT_VERSION,
  type ClauseResult,
  type ClauseStatus,
  type ConformanceReport,
  type Counts,
  type MustCounts,
  type Verdict,
} from './conformance-result.ts';

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
    /** What the inventory says of it (a fleet file's tags), as its report does. */
    tags?: Record<string, string>;
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
  /**
   * Each claimed profile's score: the share of the targets that exercised it that meet it, overall and by each value
   * of each tag; `insufficient-data` where no target exercised it (reporters/scores.ts; docs/configuration.md describes the fields).
   */
  scores?: ProfileScore[];
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
  const tally = new MatrixTally(reports.length);
  for (const [i, { report, path }] of reports.entries()) tally.add(i, report, path);
  return tally.matrix(durationMs, shard);
}

/** What the matrix keeps of one target: its row, and each clause's status in the catalogue's order. */
interface Kept {
  row: MatrixReport['targets'][number];
  statuses: ClauseStatus[];
  verdict: Verdict;
  completed: boolean;
}

/**
 * The matrix added up target by target, in any order, each target given its place: a run of a fleet adds each
 * report as it is written and lets it go, so that the matrix holds a row and a status per clause of each target,
 * never its report.
 */
export class MatrixTally {
  private readonly kept: (Kept | undefined)[];
  private first?: Pick<ConformanceReport, 'suite' | 'document'> & { clauses: Pick<ClauseResult, 'id' | 'section' | 'level' | 'title'>[] };
  private summary: MatrixReport['summary'] = { ...ZERO, total: 0, must: { ...ZERO, total: 0 } };
  private readonly errors: string[] = [];
  private readonly signatures: SignatureGroups = new Map();
  /** Each target's place, by name: a signature lists its targets in the run's order, whatever order they were added in. */
  private readonly places = new Map<string, number>();
  private readonly scores = new ScoreTally();

  constructor(targets: number) {
    this.kept = new Array(targets).fill(undefined);
  }

  /** Adds the report of the target at `place` (its place among the run's targets); `path`, its page. */
  add(place: number, report: ConformanceReport, path: string): void {
    this.first ??= {
      suite: report.suite,
      document: report.document,
      clauses: report.clauses.map(({ id, section, level, title }) => ({ id, section, level, title })),
    };
    const { summary } = this;
    this.summary = {
      ...add(summary, report.summary),
      total: summary.total + report.summary.total,
      must: { ...add(summary.must, report.summary.must), total: summary.must.total + report.summary.must.total },
    };
    const byId = new Map(report.clauses.map((c) => [c.id, c.status]));
    this.kept[place] = {
      row: rowOf(report, path),
      statuses: this.first.clauses.map((c) => byId.get(c.id) ?? 'not-exercised'),
      verdict: report.verdict,
      completed: report.completed,
    };
    for (const e of report.errors) this.errors.push(`${report.target.name}: ${e}`);
    addSignatures(this.signatures, report);
    this.places.set(report.target.name, place);
    this.scores.add(report);
  }

  /** The scores of the targets added so far (reporters/scores.ts). */
  scoresNow(): ProfileScore[] {
    return this.scores.scores();
  }

  /** The matrix of the targets added, in their places. */
  matrix(durationMs: number, shard?: Shard): MatrixReport {
    const kept = this.kept.filter((k): k is Kept => k !== undefined);
    const first = this.first!;
    const verdict = matrixVerdict(
      kept.map((k) => k.verdict),
      shard,
    );
    const interrupted = verdict === 'incomplete' && kept.some((k) => k.row.interrupted);
    return {
      reportVersion: REPORT_VERSION,
      kind: 'matrix',
      suite: first.suite,
      document: first.document,
      startedAt: kept.map((k) => k.row.startedAt ?? '').sort()[0],
      durationMs,
      verdict,
      ...(interrupted && { interrupted: true as const }),
      summary: this.summary,
      targets: kept.map((k) => k.row),
      signatures: sortedSignatures(this.signatures).map((s) => ({
        ...s,
        targets: [...s.targets].sort((a, b) => (this.places.get(a) ?? 0) - (this.places.get(b) ?? 0)),
      })),
      scores: this.scores.scores(),
      clauses: first.clauses.map((c, i) => {
        const byTarget = Object.fromEntries(kept.map((k) => [k.row.name, k.statuses[i]]));
        return { ...c, status: worst(kept.map((k) => k.statuses[i])), byTarget };
      }),
      completed: kept.every((k) => k.completed),
      errors: this.errors,
      ...(shard && { shard: `${shard.current}/${shard.total}`, runTargets: shard.runTargets, run: shard.run }),
    };
  }
}

/** A target's row of the matrix: its verdict, what it claims, and where its report is. */
const rowOf = (report: ConformanceReport, path: string): MatrixReport['targets'][number] => ({
  name: report.target.name,
  baseUrl: report.target.baseUrl,
  verdict: report.verdict,
  ...(report.interrupted && { interrupted: true as const }),
  claim: report.claim.profiles,
  summary: report.summary,
  report: path,
  startedAt: report.startedAt,
  product: report.product,
  ...(report.tags && { tags: report.tags }),
  failed: report.clauses.filter((c) => c.status === 'failed').map((c) => c.id),
  ...(!report.completed && report.errors.length > 0 && { reason: report.errors[0] }),
});
