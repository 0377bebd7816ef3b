import path from 'node:path';
import type { TargetConfig } from '../harness/config/config.ts';
import { applicableDeviations } from '../harness/config/deviations.ts';
import { slug } from '../harness/config/targets.ts';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { contractsHash } from '../harness/contracts/contracts.ts';
import { specDocument } from '../harness/contracts/document.ts';
import { loadProfiles } from '../harness/contracts/profiles.ts';
import { SUITE_VERSION } from '../harness/contracts/run-identity.ts';
import { visible } from '../harness/files/visible.ts';
import type { ClauseRun, RunFacts } from '../harness/judging/verdicts.ts';
import { runStopped } from '../harness/recording/preflight.ts';
import { createRedactor, redactValue } from '../harness/secrets/redact.ts';
import { namedSecrets } from '../harness/secrets/secret-rule.ts';
import { annotations } from '../reporters/annotations.ts';
import { writeArtifacts, writeMatrixArtifacts } from '../reporters/artifacts.ts';
import { compareWithBaseline } from '../reporters/baseline.ts';
import { buildConformanceReport, type ConformanceReport, type RunMeta } from '../reporters/conformance-result.ts';
import { consoleLine, consoleSummary } from '../reporters/console-summary.ts';
import { matrixGate, runExitCode } from '../reporters/gate.ts';
import { buildMatrixReport } from '../reporters/matrix-result.ts';
import { headline } from '../reporters/sections.ts';
import { writeEvidence, type EvidenceLine } from './evidence.ts';
import type { RunJudgement, TargetJudgement } from './judge-run.ts';
import type { Output } from './output.ts';
import type { Run } from './prepare.ts';
import { isFleet } from './fleet.ts';
import type { RunResult, TargetResult } from './result.ts';

// The run's reports: each target's a pure function of the judge's verdicts (reporters/conformance-result.ts),
// compared with the baseline, rendered, bundled and signed; then the matrix of several targets, and the exit code
// the gate gives. Built once, here, whoever started the run.

/** Which clauses of a target the run judges; undefined, every one. A clause left out is not judged. */
export type Selection = (target: TargetConfig) => ReadonlySet<string> | undefined;

/** How the run ended, as the reports tell it. */
export interface RunEnd {
  /** The judge's verdicts; undefined when the run stopped before its answers were in. */
  judgement?: RunJudgement;
  status: RunMeta['runStatus'];
  /** What stopped the run or broke it, each in one line, secrets not yet hidden. */
  errors: string[];
  durationMs: number;
  selection?: Selection;
  /** The environment's facts the reports follow (a GitHub Actions job's summary and annotations). */
  ci?: { stepSummary?: string; annotations?: boolean };
}

/** What hides a target's secrets: a replay holds none, only the placeholders that stand for them. */
const secretsOf = (config: TargetConfig) => (config.replay ? (text: string) => text : createRedactor(config));

/** A target's facts when it has no judgement (the run was stopped before its answers came). */
function factsOf(config: TargetConfig): RunFacts {
  return {
    target: { name: config.name, baseUrl: config.baseUrl, embedded: config.embedded },
    startedAt: new Date().toISOString(),
    requests: { count: 0, methods: [] },
    // No version was read: the deviations are those of the version stated, if any.
    deviations: applicableDeviations(config.deviations, config.product?.version).applied,
    product: config.product,
  };
}

/** The runs of the clauses the selection keeps: one left out has none, and the report says so. */
function selected(runs: ClauseRun[], config: TargetConfig, selection: Selection | undefined): ClauseRun[] {
  const kept = selection?.(config);
  return kept === undefined ? runs : runs.filter((r) => kept.has(r.clause));
}

/** The errors that stop every target of the run: a stop none of whose targets could be judged, or the suite's own. */
export function stopOf(judgement: RunJudgement, multi: boolean): string | undefined {
  const stopped = judgement.targets.filter((t) => t.problem !== undefined);
  if (stopped.length < judgement.targets.length) return undefined;
  return runStopped(multi ? stopped.map((t) => `${t.config.name}: ${t.problem}`).join('; ') : stopped[0].problem!).message;
}

function reportOf(config: TargetConfig, judged: TargetJudgement | undefined, end: RunEnd, today: string): ConformanceReport {
  const secrets = secretsOf(config);
  // Escapes first, so that no escape written later can spell a secret the redactor did not see.
  const redact = (text: string) => secrets(visible(text, 'block'));
  const facts = judged?.facts ?? factsOf(config);
  const stop = judged?.problem === undefined ? undefined : runStopped(judged.problem).message;
  return buildConformanceReport(loadCatalogue(), judged ? selected(judged.runs, config, end.selection) : [], {
    suiteVersion: SUITE_VERSION,
    contractsHash: contractsHash(),
    document: specDocument(),
    product: facts.product,
    replay: facts.replay,
    target: facts.target,
    startedAt: facts.startedAt,
    durationMs: end.durationMs,
    runStatus: end.status,
    runErrors: [
      // The setting comes first, as the reason: it names what to do.
      ...(end.status === 'timedout'
        ? [`the run took longer than CONFORMANCE_RUN_TIMEOUT_MS (${config.runTimeoutMs} ms) and was stopped; give a larger value for a target this slow`]
        : []),
      ...(stop ? [stop] : []),
      ...end.errors.filter((e) => stop === undefined || !e.includes(stop)).map(redact),
      ...(end.status === 'interrupted' ? ['the run was interrupted (a signal, or the first failure with -x)'] : []),
    ],
    deviations: facts.deviations,
    deviationsSetAside: facts.deviationsSetAside,
    today,
    requests: facts.requests,
    consistency: facts.consistency,
    profiles: loadProfiles(),
    claim: facts.claim ?? config.claim,
    // The embedded target's tokens are its own, set by no setting of the user's.
    placeholders: config.embedded ? undefined : namedSecrets(config).map(({ placeholder, setting }) => ({ placeholder, setting })),
  });
}

/**
 * A report compared with the baseline: what the comparison quotes of the baseline (its reasons, its path) is
 * a file of the user's, and this run's secrets are hidden in it as in everything the run writes.
 */
function withoutSecrets(report: ConformanceReport, config: TargetConfig): ConformanceReport {
  return report.baseline ? { ...report, baseline: redactValue(report.baseline, secretsOf(config)) } : report;
}

const lines = (shown: EvidenceLine[]) => shown.map((e) => `${e.line}\n`).join('');

/** Every target's report, built from the judge's verdicts and compared with the baseline: a pure function of the run's end. */
export function buildReports(run: Run, end: RunEnd): ConformanceReport[] {
  const today = end.judgement?.today ?? new Date().toISOString().slice(0, 10);
  const built = run.targets.map((config, i) => reportOf(config, end.judgement?.targets[i], end, today));
  // Every target's report is compared with the baseline before any is written: the comparison is in each.
  const compared = run.baseline ? compareWithBaseline(built, run.baseline, run.gate) : built;
  return compared.map((report, i) => withoutSecrets(report, run.targets[i]));
}

/**
 * Builds every target's report, writes its files, evidence and attestation, then the matrix of several targets;
 * prints the closing lines and returns the run's result, its exit code the gate's (reporters/gate.ts).
 * `onTarget` hears of each target once its files are written.
 */
export async function reportRun(run: Run, end: RunEnd, output: Output, onTarget?: (target: TargetResult) => void): Promise<RunResult> {
  return writeReports(run, buildReports(run, end), end, output, onTarget);
}

/** Writes the reports built (buildReports): each target's files, evidence and attestation, then the matrix; the run's result. */
export async function writeReports(
  run: Run,
  reports: ConformanceReport[],
  end: RunEnd,
  output: Output,
  onTarget?: (target: TargetResult) => void,
): Promise<RunResult> {
  const today = end.judgement?.today ?? new Date().toISOString().slice(0, 10);
  const ended = end.status !== 'interrupted' && end.status !== 'timedout';
  const fleet = isFleet(run);
  const interrupted = end.status === 'interrupted';
  const targets: TargetResult[] = [];
  for (const [i, config] of run.targets.entries()) {
    const report = reports[i];
    const files = writeArtifacts(report, config.reportDir, run.multi ? undefined : end.ci?.stepSummary);
    const page = path.relative(run.reportDir, path.join(config.reportDir, 'index.html'));
    const evidenceDir = config.evidenceDir && run.multi ? path.join(config.evidenceDir, slug(config.name)) : config.evidenceDir;
    const evidence = await writeEvidence(report, { ...config, evidenceDir }, ended, today, end.judgement?.targets[i]?.facts.configuration);
    // A fleet's target that passes has no line, but what is missing of its evidence does. A run stopped before it
    // ended found nothing to list (its judging is whole or none): its one line closes the run.
    if (!interrupted)
      output.out(
        fleet
          ? (report.verdict === 'pass' ? '' : consoleLine(report, page)) + lines(evidence.filter((e) => e.missing))
          : consoleSummary(report, files) + lines(evidence),
      );
    const bundle = evidence.find((e) => e.bundle !== undefined)?.bundle;
    const target: TargetResult = { name: config.name, verdict: report.verdict, reportDir: config.reportDir, page, files, report, ...(bundle && { bundle }) };
    tell(onTarget, target, output);
    targets.push(target);
  }
  return closeRun(run, targets, end, output);
}

/** The caller's callback, whose own error is said and does not stop the run. */
function tell(onTarget: ((target: TargetResult) => void) | undefined, target: TargetResult, output: Output): void {
  try {
    onTarget?.(target);
  } catch (error) {
    output.err(
      `conformance: the onTarget callback threw for ${visible(target.name)} (${visible(String((error as Error)?.message ?? error))}); the run goes on\n`,
    );
  }
}

/** Why a stopped run has no verdict, in the result and in its one line. */
export const INTERRUPTED_REASON = 'interrupted: the run was stopped before it ended, and has no verdict';

/** The one line that closes a run stopped before it ended: that it was, and where its reports say so. */
const interruptedLine = (page: string) => `INTERRUPTED: the run was stopped before it ended, and has no verdict; its reports say so: ${page}\n`;

/** The annotations of a CI job, the matrix of several targets, and the run's exit code. */
function closeRun(run: Run, targets: TargetResult[], end: RunEnd, output: Output): RunResult {
  const reports = targets.map((t) => t.report);
  // In a GitHub Actions job the failed clauses are also annotations, which the runner reads from this log.
  if (end.ci?.annotations) for (const line of annotations(reports)) output.out(`${line}\n`);
  const exitCode = runExitCode(reports, run.multi, run.shard);
  const interrupted = end.status === 'interrupted';
  const stopped = interrupted ? { reason: INTERRUPTED_REASON } : {};
  if (!run.multi) {
    if (interrupted) output.out(interruptedLine(path.join(run.reportDir, 'index.html')));
    return { verdict: targets[0].verdict, exitCode, reportDir: run.reportDir, targets, ...stopped };
  }
  const gate = matrixGate(reports, exitCode);
  const matrix = {
    ...buildMatrixReport(
      targets.map((t) => ({ report: t.report, path: t.page })),
      end.durationMs,
      run.shard,
    ),
    ...(gate && { gate }),
  };
  const files = writeMatrixArtifacts(matrix, reports, run.reportDir, end.ci?.stepSummary);
  const passing = matrix.targets.filter((t) => t.verdict === 'pass').length;
  const shardNote = matrix.shard ? ` (the run has ${matrix.runTargets?.length}: merge the shards' report folders for its verdict)` : '';
  output.out(
    interrupted
      ? interruptedLine(path.join(run.reportDir, 'index.html'))
      : `\nConformance matrix${matrix.shard ? ` of shard ${matrix.shard}` : ''}: ${headline(matrix)}, ${passing} of ${matrix.targets.length} targets pass${shardNote}\n${files.map((f) => `  report: ${f}`).join('\n')}\n`,
  );
  if (gate) output.out(`  ${gate.text}\n`);
  return { verdict: matrix.verdict, exitCode, reportDir: run.reportDir, targets, matrix, ...stopped };
}
