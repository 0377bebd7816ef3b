import { readFileSync, rmSync } from 'node:fs';
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
import { appends, labelledReports, recordHistory } from './history.ts';
import { annotations, MAX_ANNOTATIONS } from '../reporters/annotations.ts';
import { attestationFileOf } from '../harness/evidence/attestation-file.ts';
import { judgeTargets } from './judge-run.ts';
import { renderArtifacts, writeArtifactsAsync, writeMatrixArtifacts } from '../reporters/artifacts.ts';
import { compareWithBaseline } from '../reporters/baseline.ts';
import { buildConformanceReport, type ConformanceReport, type ReportView, type RunMeta, type Verdict } from '../reporters/conformance-result.ts';
import { consoleLine, consoleSummary } from '../reporters/console-summary.ts';
import { exitCodeOf, gateVerdict, ratchetLine } from '../reporters/gate.ts';
import { MatrixTally } from '../reporters/matrix-result.ts';
import { JunitParts } from '../reporters/junit-parts.ts';
import { CtrfParts } from '../reporters/ctrf-parts.ts';
import { writeMetricsFile } from '../reporters/metrics-file.ts';
import { metricsViewOf, type MetricsView } from '../reporters/metrics.ts';
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
    // A tag is the user's text, written in every report: the run's secrets are hidden in it as everywhere.
    ...(config.tags && { tags: redactValue(config.tags, secrets) }),
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

/** A target's report compared with the baseline: by name in a run of several, one with one in a run of one. */
function compared(run: Run, report: ConformanceReport, config: TargetConfig): ConformanceReport {
  // The pairing diff makes (reporters/diff.ts pairs): by name, or one with one when both runs have one target.
  const baseline =
    run.baseline && (run.targets.length === 1 ? run.baseline : { ...run.baseline, reports: run.baseline.reports.filter((r) => r.target.name === config.name) });
  const withBaseline = baseline ? compareWithBaseline([report], baseline, run.gate)[0] : report;
  // Labelled against the history once the verdicts are known: a label changes none of them.
  return withoutSecrets(labelledReports([withBaseline], run.history)[0], config);
}

/** Every target's report, built from the judge's verdicts and compared with the baseline: a pure function of the run's end. */
export function buildReports(run: Run, end: RunEnd): ConformanceReport[] {
  const today = end.judgement?.today ?? new Date().toISOString().slice(0, 10);
  return run.targets.map((config, i) => compared(run, reportOf(config, end.judgement?.targets[i], end, today), config));
}

/**
 * Builds every target's report, writes its files, evidence and attestation, then the matrix of several targets;
 * prints the closing lines and returns the run's result, its exit code the gate's (reporters/gate.ts).
 * `onTarget` hears of each target once its files are written.
 */
export async function reportRun(run: Run, end: RunEnd, output: Output, onTarget?: (target: TargetResult) => void): Promise<RunResult> {
  const writer = new RunWriter(run, output, onTarget);
  const today = end.judgement?.today ?? new Date().toISOString().slice(0, 10);
  for (const [i, config] of run.targets.entries()) {
    const judged = end.judgement?.targets[i];
    await writer.write(i, reportOf(config, judged, end, today), end, judged?.facts.configuration);
  }
  return writer.close(end);
}

/** Writes the reports built (buildReports): each target's files, evidence and attestation, then the matrix; the run's result. */
export async function writeReports(
  run: Run,
  reports: ConformanceReport[],
  end: RunEnd,
  output: Output,
  onTarget?: (target: TargetResult) => void,
): Promise<RunResult> {
  const writer = new RunWriter(run, output, onTarget);
  for (const [i, report] of reports.entries()) await writer.write(i, report, end, end.judgement?.targets[i]?.facts.configuration, false);
  return writer.close(end);
}

/**
 * The run's reports written target by target, in any order, each let go once written: what the run's end needs of
 * it is kept (its result line, its row and clause statuses in the matrix, its share of the scores and of the exit
 * code), never its report, so that a fleet's memory does not grow with its size. A fleet's result reads each
 * target's report back from its conformance.json when asked.
 */
export class RunWriter {
  private readonly results: (TargetResult | undefined)[];
  private readonly gated: (Verdict | undefined)[];
  private readonly matrix: MatrixTally;
  private readonly junit: JunitParts | undefined;
  private readonly ctrf: CtrfParts | undefined;
  private readonly failures: ReportView[] = [];
  /** What metrics.prom needs of each target written, its report let go. */
  private readonly metrics: (MetricsView | undefined)[];
  private readonly fleet: boolean;

  constructor(
    private readonly run: Run,
    private readonly output: Output,
    private readonly onTarget?: (target: TargetResult) => void,
  ) {
    this.fleet = isFleet(run);
    this.results = new Array(run.targets.length).fill(undefined);
    this.gated = new Array(run.targets.length).fill(undefined);
    this.metrics = new Array(run.targets.length).fill(undefined);
    this.matrix = new MatrixTally(run.targets.length);
    this.junit = run.multi ? new JunitParts(run.reportDir) : undefined;
    this.ctrf = run.multi ? new CtrfParts(run.reportDir) : undefined;
  }

  /** Writes the target's report built at place `i` (compared with the baseline unless `compare` is false: it was). */
  async write(i: number, built: ConformanceReport, end: RunEnd, configuration: string | undefined, compare = true): Promise<TargetResult> {
    const { run, output } = this;
    const config = run.targets[i];
    const report = compare ? compared(run, built, config) : built;
    const today = end.judgement?.today ?? new Date().toISOString().slice(0, 10);
    const ended = end.status !== 'interrupted' && end.status !== 'timedout';
    const rendered = renderArtifacts(report);
    const files = await writeArtifactsAsync(config.reportDir, rendered, run.multi ? undefined : end.ci?.stepSummary);
    const page = path.relative(run.reportDir, path.join(config.reportDir, 'index.html'));
    const evidenceDir = config.evidenceDir && run.multi ? path.join(config.evidenceDir, slug(config.name)) : config.evidenceDir;
    const evidence = await writeEvidence(report, { ...config, evidenceDir }, ended, today, configuration, rendered);
    // A fleet's target that passes has no line, but what is missing of its evidence does. A run stopped before it
    // ended found nothing to list (its judging is whole or none): its one line closes the run.
    if (end.status !== 'interrupted')
      output.out(
        this.fleet
          ? (report.verdict === 'pass' ? '' : consoleLine(report, page)) + lines(evidence.filter((e) => e.missing))
          : consoleSummary(report, files) + lines(evidence),
      );
    const bundle = evidence.find((e) => e.bundle !== undefined)?.bundle;
    const target: TargetResult = { name: config.name, verdict: report.verdict, reportDir: config.reportDir, page, files, report, ...(bundle && { bundle }) };
    tell(this.onTarget, target, output);
    this.keep(i, target, report, end);
    return target;
  }

  /** The bundles and attestations written so far: a run stopped before it ended leaves none. */
  written(): string[] {
    return this.results.flatMap((t) => (t?.bundle ? [t.bundle, attestationFileOf(t.bundle)] : []));
  }

  /** What the run's end needs of a target written, its report let go where the run is a fleet. */
  private keep(i: number, target: TargetResult, report: ConformanceReport, end: RunEnd): void {
    this.gated[i] = gateVerdict(report);
    this.metrics[i] = metricsViewOf(report);
    if (this.run.multi) {
      this.matrix.add(i, report, target.page);
      this.junit!.add(report);
      this.ctrf!.add(report);
    }
    if (end.ci?.annotations)
      this.failures[i] = failuresOf(
        report,
        this.failures.reduce((n, f) => n + (f?.clauses.length ?? 0), 0),
      );
    this.results[i] = this.fleet ? readBack(target) : target;
  }

  /** The annotations of a CI job, the matrix of several targets, and the run's exit code. */
  async close(end: RunEnd): Promise<RunResult> {
    const { run, output } = this;
    const targets = this.results.filter((t): t is TargetResult => t !== undefined);
    if (run.history && appends(run, end.status, run.targets[0].replay !== undefined)) recordHistory(run.history, targets, output);
    // One metrics.prom for the run, however many targets: what a monitoring system reads (reporters/metrics.ts).
    writeMetricsFile(
      run.reportDir,
      this.metrics.filter((m): m is MetricsView => m !== undefined),
      { ...run.metrics, ...(run.multi && { scores: this.matrix.scoresNow() }) },
    );
    // In a GitHub Actions job the failed clauses are also annotations, which the runner reads from this log.
    if (end.ci?.annotations) for (const line of annotations(this.failures.filter((f) => f !== undefined))) output.out(`${line}\n`);
    const verdicts = this.gated.filter((v): v is Verdict => v !== undefined);
    const exitCode = exitCodeOf(verdicts, run.multi, run.shard);
    const interrupted = end.status === 'interrupted';
    const stopped = interrupted ? { reason: INTERRUPTED_REASON } : {};
    if (!run.multi) {
      if (interrupted) output.out(interruptedLine(path.join(run.reportDir, 'index.html')));
      return { verdict: targets[0].verdict, exitCode, reportDir: run.reportDir, targets, ...stopped };
    }
    const gate = ratchetLine(run.baseline !== undefined && run.gate === 'regressions', exitCode);
    const matrix = { ...this.matrix.matrix(end.durationMs, run.shard), ...(gate && { gate }) };
    const files = writeMatrixArtifacts(matrix, undefined, run.reportDir, end.ci?.stepSummary);
    await this.junit!.finish();
    await this.ctrf!.finish(matrix);
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
}

/**
 * What an annotation needs of a target's report: its name and its failed clauses, their evidence only while fewer
 * than MAX_ANNOTATIONS are kept (only those are quoted; the rest are named by id).
 */
function failuresOf(report: ConformanceReport, kept: number): ReportView {
  const failed = report.clauses.filter((c) => c.status === 'failed');
  const clauses = failed.map((c, i) => (kept + i < MAX_ANNOTATIONS ? c : { ...c, evidence: undefined, reason: undefined }));
  return { ...report, clauses, requests: { count: 0, methods: [] }, errors: [] };
}

/** A target's result whose report is read back from its conformance.json when asked, not held. */
function readBack(target: TargetResult): TargetResult {
  const { report: _let_go, ...kept } = target;
  const file = path.join(target.reportDir, 'conformance.json');
  return Object.defineProperty(kept, 'report', { enumerable: true, get: () => JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport }) as TargetResult;
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

/** How a streamed run is started: its stop, when it started, the clauses it judges and the CI it runs in. */
export interface StreamStart {
  signal?: AbortSignal;
  started: number;
  selection?: Selection;
  ci?: RunEnd['ci'];
  /** Hears of each target's report once it is written, before it is let go; `problem`, why the target left nothing to judge. */
  onReport?: (place: number, report: ConformanceReport, problem: string | undefined) => void;
}

/**
 * Judges a fleet and writes each target's reports as its judging ends, letting each go: the fleet's memory does not
 * grow with its size. What the run's end needs is kept (the matrix's rows, the scores, the exit code). A target that
 * left nothing to judge waits until one did (a run none of whose targets did stops with one line, `said`); a run
 * stopped before it ended has every target's reports rewritten without a verdict, and no bundle left: its judging
 * is whole or none, as a run written at its end.
 */
export async function streamRun(
  run: Run,
  start: StreamStart,
  output: Output,
  onTarget?: (target: TargetResult) => void,
): Promise<RunResult & { said?: string }> {
  const timeout = AbortSignal.timeout(run.targets[0].runTimeoutMs);
  const stop = start.signal ? AbortSignal.any([start.signal, timeout]) : timeout;
  const today = new Date().toISOString().slice(0, 10);
  const endNow = (status: RunEnd['status'] = 'passed', errors: string[] = []): RunEnd => ({
    status,
    errors,
    durationMs: Date.now() - start.started,
    selection: start.selection,
    ci: start.ci,
  });
  const writer = new RunWriter(run, output, onTarget);
  const held: [number, TargetJudgement][] = [];
  let flowing = false;
  const writeOne = async (i: number, judged: TargetJudgement) => {
    const end = endNow();
    const { report } = await writer.write(i, reportOf(run.targets[i], judged, end, today), end, judged.facts.configuration);
    start.onReport?.(i, report, judged.problem);
  };
  try {
    const judgement = await judgeTargets(run.targets, loadCatalogue(), today, stop, run.shard, async (i, judged) => {
      // Held until one target has something to judge: until then the run may yet stop with one line.
      if (!flowing && judged.problem !== undefined) return void held.push([i, judged]);
      flowing = true;
      for (const [j, h] of held.splice(0)) await writeOne(j, h);
      await writeOne(i, judged);
    });
    if (judgement === undefined) return await rewritten(run, writer, endNow(start.signal?.aborted ? 'interrupted' : 'timedout'), output, onTarget);
    if (!flowing) {
      const said = stopOf({ ...judgement, targets: held.sort(([a], [b]) => a - b).map(([, t]) => t) }, run.multi)!;
      const end = endNow('failed', [said]);
      for (const [i, judged] of held) await writer.write(i, reportOf(run.targets[i], judged, end, today), end, judged.facts.configuration);
      return { ...(await writer.close(end)), said };
    }
    return await writer.close(endNow());
  } catch (error) {
    const message = visible(String((error as Error)?.message ?? error));
    const said = `conformance: no verdict: the suite stopped on an error of its own (${message}); the settings are not at fault: report it with this line`;
    return { ...(await rewritten(run, writer, endNow('failed', [`the suite stopped on an error of its own: ${message}`]), output, onTarget)), said };
  }
}

/** Every target's reports written again without a verdict (the run did not end), the bundles written meanwhile removed. */
async function rewritten(
  run: Run,
  written: Pick<RunWriter, 'written'>,
  end: RunEnd,
  output: Output,
  onTarget?: (target: TargetResult) => void,
): Promise<RunResult> {
  for (const file of written.written()) rmSync(file, { force: true });
  return reportRun(run, end, output, onTarget);
}

/**
 * A streamed run's reports taken back: every target's written again without a verdict, with `reason` as the run's
 * error, its bundles removed. For a run whose verdicts were written before its caller found it could not stand
 * behind them (a test runner that ran fewer clauses than were judged): no verdict, exit code 3.
 */
export function withdrawn(run: Run, result: RunResult, reason: string, durationMs: number, output: Output): Promise<RunResult> {
  const bundles = { written: () => result.targets.flatMap((t) => (t.bundle ? [t.bundle, attestationFileOf(t.bundle)] : [])) };
  return rewritten(run, bundles, { status: 'failed', errors: [reason], durationMs }, output);
}
