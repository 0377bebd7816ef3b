import type { Shard } from '../harness/config/targets.ts';
import { REGRESSIONS } from './change.ts';
import { EXIT_CODE, verdictOf, type ConformanceReport, type Verdict } from './conformance-result.ts';
import { matrixVerdict } from './matrix-result.ts';
import { verdictText } from './sections.ts';
import { visible } from '../harness/files/visible.ts';

// The one place that decides a run's exit code (CONFORMANCE_GATE). `must`: the verdict's, any MUST violation
// fails. `regressions`, the ratchet: the failures the baseline had are set aside, and only what got worse
// fails. Either way the report's verdict and badge stay what the target did; and a run without a verdict
// (errored, partial, interrupted) never passes by the ratchet.

type Gated = Pick<ConformanceReport, 'verdict' | 'clauses' | 'claim' | 'completed' | 'interrupted' | 'consistency' | 'baseline' | 'summary'> & {
  target?: ConformanceReport['target'];
};

/**
 * The failing clauses the ratchet sets aside: each failed in the baseline too, for the same target, by the
 * same judge. A baseline judged by another suite, contracts or text of the document says nothing of a
 * clause that may have changed meaning, so it sets none aside.
 */
export function knownFailures(report: Gated): string[] {
  const baseline = report.baseline;
  if (baseline === undefined || baseline.compared === undefined || baseline.judgeChanged.length > 0) return [];
  const kinds = new Map(baseline.changes.map((c) => [c.id, c.kind]));
  // A clause the diff leaves out did not change: it failed then as now. One that fails with other evidence is
  // still the failure the baseline had (the evidence quotes values, a token's expiry, that differ between runs).
  return report.clauses.filter((c) => c.status === 'failed' && (kinds.get(c.id) ?? 'evidence-changed') === 'evidence-changed').map((c) => c.id);
}

/**
 * The verdict the exit code follows: the report's own under the `must` gate; under the ratchet, the verdict
 * the run would have were the baseline's failures known deviations, and a fail for any regression.
 */
export function gateVerdict(report: Gated): Verdict {
  const baseline = report.baseline;
  if (baseline?.gate !== 'regressions') return report.verdict;
  const known = new Set(knownFailures(report));
  const clauses = report.clauses.map((c) => (known.has(c.id) ? { ...c, status: 'known-deviation' as const } : c));
  const verdict = known.size === 0 ? report.verdict : verdictOf({ ...report, clauses });
  // A regression (passed, then failed under a known deviation) fails the ratchet as a violation fails a run,
  // whatever else is missing; an interrupted run has no verdict, whatever it found.
  if (verdict === 'fail' || verdict === 'incomplete') return verdict;
  return baseline.regressions > 0 ? 'fail' : verdict;
}

/** The ratchet's line for a run of several targets (a matrix's, a merge's); undefined under the `must` gate. */
export function matrixGate(reports: Gated[], exitCode: number): { exitCode: number; text: string } | undefined {
  return ratchetLine(
    reports.some((r) => r.baseline?.gate === 'regressions'),
    exitCode,
  );
}

/** The ratchet's line, where the run's targets were compared under it; a run of a fleet knows it without its reports. */
export function ratchetLine(ratchet: boolean, exitCode: number): { exitCode: number; text: string } | undefined {
  if (!ratchet) return undefined;
  return {
    exitCode,
    text: `gate (ratchet): exit code ${exitCode}, by what regressed against each target's baseline (each target's report says what); the verdict is what the targets did`,
  };
}

/** The run's exit code: its one target's, or, of several, as the matrix's verdict is made of theirs (a shard's included). */
export function runExitCode(reports: Gated[], multi: boolean, shard?: Shard): number {
  return exitCodeOf(reports.map(gateVerdict), multi, shard);
}

/** The run's exit code from each target's verdict under the gate (gateVerdict), taken as each report was written. */
export function exitCodeOf(gated: Verdict[], multi: boolean, shard?: Shard): number {
  return EXIT_CODE[multi ? matrixVerdict(gated, shard) : gated[0]];
}

const listed = (ids: string[]) => (ids.length <= 4 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`);
const mustClauses = (n: number) => `${n} MUST clause${n === 1 ? '' : 's'}`;

/** Why failing clauses that did not regress are not set aside: the baseline cannot say they failed then. */
function notComparable(report: Gated, ids: string[]): string | undefined {
  const baseline = report.baseline!;
  if (ids.length === 0) return undefined;
  const fail = `${mustClauses(ids.length)} fail${ids.length === 1 ? 's' : ''} (${listed(ids)})`;
  if (baseline.compared === undefined) return `${fail}, and the baseline has no target "${report.target?.name ?? ''}" to compare with`;
  if (baseline.judgeChanged.length > 0)
    return `${fail}, and another judge made the baseline (${baseline.judgeChanged.join('; ')}): no failure can be taken for one it had`;
  return `${fail} that the baseline did not judge`;
}

/**
 * The baseline's target in words when it is not this run's (another name, or another base URL): a run of one target
 * is compared with a baseline of one whatever its name, and the ratchet then holds this deployment to the failures
 * another had, which whoever reads the exit code must be told.
 */
function otherTarget(report: Gated): string | undefined {
  const [compared, target] = [report.baseline?.compared, report.target];
  if (compared === undefined || target === undefined) return undefined;
  const sameUrl = compared.baseUrl === undefined || target.embedded || compared.baseUrl === target.baseUrl;
  if (compared.target === target.name && sameUrl) return undefined;
  const named = (name: string, baseUrl: string | undefined) => visible(`"${name}"${baseUrl === undefined ? '' : ` at ${baseUrl}`}`);
  return `the baseline is of another target (${named(compared.target, compared.baseUrl)}; this run's is ${named(target.name, target.embedded ? undefined : target.baseUrl)})`;
}

/**
 * The gate in words, beside the verdict in every rendering: what the exit code follows and why, the failures
 * it set aside named as failures. Undefined under the `must` gate, where the verdict says it all.
 */
export function gateText(report: Gated): string | undefined {
  const baseline = report.baseline;
  if (baseline?.gate !== 'regressions') return undefined;
  const verdict = gateVerdict(report);
  const known = knownFailures(report);
  const regressed = baseline.changes.filter((c) => REGRESSIONS.includes(c.kind)).map((c) => c.id);
  const unknown = report.clauses.filter((c) => c.status === 'failed' && !known.includes(c.id) && !regressed.includes(c.id)).map((c) => c.id);
  const worse = [
    regressed.length > 0 ? `${regressed.length} regressed against ${baseline.source} (${listed(regressed)})` : undefined,
    notComparable(report, unknown),
  ];
  const said = worse.filter((part): part is string => part !== undefined);
  const other = otherTarget(report);
  const parts = [
    ...(said.length > 0 ? said : [`nothing regressed against ${baseline.source}`]),
    ...(other === undefined ? [] : [other]),
    ...(verdict === 'pass' || verdict === 'fail' ? [] : [verdictText({ ...report, verdict, target: undefined })]),
    ...(known.length > 0 ? [`the target still FAILS ${mustClauses(known.length)}, as in the baseline (${listed(known)})`] : []),
  ];
  return `gate (ratchet): exit code ${EXIT_CODE[verdict]}: ${parts.join('; ')}`;
}
