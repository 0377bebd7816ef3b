import path from 'node:path';
import type { FullResult, Reporter, Suite, TestCase, TestError } from '@playwright/test/reporter';
import { loadCatalogue } from '../contracts/catalogue.ts';
import { loadProfiles } from '../contracts/profiles.ts';
import type { TargetConfig } from '../config/config.ts';
import { slug } from '../config/targets.ts';
import { runTargets } from './run-targets.ts';
import { contractsHash } from '../contracts/contracts.ts';
import { specDocument } from '../contracts/document.ts';
import { runStopped } from '../recording/preflight.ts';
import { createRedactor, redactValue } from '../secrets/redact.ts';
import { namedSecrets } from '../secrets/secret-rule.ts';
import { judgingEnd, type RunJudgement, type TargetJudgement } from './run-judgement.ts';
import type { Replay } from './replay-file.ts';
import { isFleet, testStatusOf } from './replays.ts';
import type { ClauseRun, RunFacts } from '../judging/verdicts.ts';
import { visible } from '../files/visible.ts';
import { SUITE_VERSION } from '../contracts/run-identity.ts';
import { discardEvidence } from '../evidence/evidence-stage.ts';
import { annotations } from '../../reporters/annotations.ts';
import { writeArtifacts, writeMatrixArtifacts } from '../../reporters/artifacts.ts';
import { buildConformanceReport, EXIT_CODE, type ConformanceReport, type Verdict } from '../../reporters/conformance-result.ts';
import { buildMatrixReport } from '../../reporters/matrix-result.ts';
import { compareWithBaseline } from '../../reporters/baseline.ts';
import { matrixGate, runExitCode } from '../../reporters/gate.ts';
import { VERDICT_LABEL } from '../../reporters/sections.ts';
import { consoleLine, consoleSummary } from '../../reporters/console-summary.ts';
import { writeEvidenceBundle } from '../../reporters/evidence-bundle.ts';
import { noVerdictToSign, writeAttestation } from '../../reporters/attestation-file.ts';

// The reporter runs in Playwright's runner, where global setup judged the run: it takes the verdicts from
// there (harness/run/run-judgement.ts), and of Playwright's results only whether each clause's test ran to its end.

// Playwright colours its messages; the report keeps plain text.
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** What the command that started the run (bin/admin-api-conformance.js) is told: that the run began, then its verdict. */
function tellTheCommand(message: { started: true } | { verdict: Verdict; exitCode: number }): void {
  if (process.connected) process.send?.(message);
}

/**
 * The runs Playwright carried to their end: a clause whose test did not run (a --grep, an interruption) has
 * none; one whose test ended otherwise than its replay does (a timeout, a crash) is errored, with what broke.
 */
function carried(runs: ClauseRun[], tests: TestCase[], replays: Record<string, Replay>, redact: (text: string) => string): ClauseRun[] {
  const results = new Map(tests.map((t) => [t.annotations.find((a) => a.type === 'clause')?.description, t.results.at(-1)]));
  return runs.flatMap((run): ClauseRun[] => {
    const result = results.get(run.clause);
    const expected = testStatusOf(replays[run.clause].status);
    if (result === undefined || result.status === 'interrupted' || (result.status === 'skipped' && expected !== 'skipped')) return [];
    if (result.status === expected) return [run];
    const error = result.errors.map((e) => stripAnsi(e.message ?? e.value ?? '')).join('\n');
    return [{ clause: run.clause, outcome: 'errored', reason: error ? redact(error) : `its test ended ${result.status}` }];
  });
}

/** What hides a target's secrets: a replay holds none, only the placeholders that stand for them. */
const secretsOf = (config: TargetConfig) => (config.replay ? (text: string) => text : createRedactor(config));

/**
 * A report compared with the baseline: what the comparison quotes of the baseline (its reasons, its path) is
 * a file of the user's, and this run's secrets are hidden in it as in everything the run writes.
 */
function withoutSecrets(report: ConformanceReport, config: TargetConfig): ConformanceReport {
  return report.baseline ? { ...report, baseline: redactValue(report.baseline, secretsOf(config)) } : report;
}

/** A target's facts when it has no judgement (the run was stopped before its answers came). */
function factsOf(config: TargetConfig): RunFacts {
  return {
    target: { name: config.name, baseUrl: config.baseUrl, embedded: config.embedded },
    startedAt: new Date().toISOString(),
    requests: { count: 0, methods: [] },
    deviations: config.deviations,
    product: config.product,
  };
}

/** A closing line of a target's evidence: where it went, or what is missing (which a fleet's terminal shows alone). */
interface EvidenceLine {
  line: string;
  missing: boolean;
}

const wentTo = (line: string): EvidenceLine => ({ line, missing: false });
const none = (line: string): EvidenceLine => ({ line, missing: true });

/** Signs the bundle's attestation with the configured key; the line that says where it went, or why there is none. */
function attestationLine(report: ConformanceReport, bundle: string, config: TargetConfig, configuration: string | undefined): EvidenceLine {
  const { key, kind } = config.signing!;
  if (configuration === undefined) return none('  attestation: none, the run judged nothing');
  try {
    const signed = writeAttestation(report, bundle, { key, configuration, url: config.runUrl });
    return 'none' in signed
      ? none(`  attestation: none, ${signed.none}`)
      : wentTo(`  attestation: ${signed.written} (signed with an ${kind} key, keyid ${signed.keyid.slice(0, 16)})`);
  } catch (error) {
    // The bundle stands without its attestation; what the key is, or holds, is no part of the message.
    const { code, message } = error as NodeJS.ErrnoException;
    return none(`  attestation: none, it could not be written (${visible(code ?? message ?? String(error))})`);
  }
}

/** Builds the conformance report at the end of the run, writes its renderings, and tells the command its verdict. */
export default class ConformanceReporter implements Reporter {
  private suite?: Suite;
  private readonly runErrors: string[] = [];

  constructor() {
    tellTheCommand({ started: true });
    // The command gone (killed with SIGKILL, which it cannot pass on), the run stops as for SIGINT, its report
    // marked interrupted, rather than go on alone, holding the report folder, its verdict read by no one.
    if (process.connected) {
      process.once('disconnect', () => process.kill(process.pid, 'SIGINT'));
      process.channel?.unref();
    }
  }

  onBegin(_config: unknown, suite: Suite): void {
    this.suite = suite;
  }

  onError(error: TestError): void {
    this.runErrors.push(stripAnsi(error.message ?? error.value ?? 'unknown error'));
  }

  printsToStdio(): boolean {
    return true;
  }

  private reportOf(
    config: TargetConfig,
    judged: TargetJudgement | undefined,
    replays: RunJudgement['replays'] | undefined,
    result: FullResult,
    today: string,
  ): ConformanceReport {
    const secrets = secretsOf(config);
    // Escapes first, so that no escape written later can spell a secret the redactor did not see.
    const redact = (text: string) => secrets(visible(text, 'block'));
    const catalogue = loadCatalogue();
    const facts = judged?.facts ?? factsOf(config);
    const tests = (this.suite?.allTests() ?? []).filter((t) => (t.parent.project()?.name ?? '') === (judged?.project ?? ''));
    const stop = judged?.problem === undefined ? undefined : runStopped(judged.problem).message;
    const runs = judged && replays ? carried(judged.runs, tests, replays[judged.project], redact) : [];
    return buildConformanceReport(catalogue, runs, {
      suiteVersion: SUITE_VERSION,
      contractsHash: contractsHash(),
      document: specDocument(),
      product: facts.product,
      replay: facts.replay,
      target: facts.target,
      startedAt: facts.startedAt,
      durationMs: result.duration,
      runStatus: result.status,
      runErrors: [
        // Playwright's own line names neither the setting nor what to do; this one comes first, as the reason.
        ...(result.status === 'timedout'
          ? [`the run took longer than CONFORMANCE_RUN_TIMEOUT_MS (${config.runTimeoutMs} ms) and was stopped; give a larger value for a target this slow`]
          : []),
        ...(stop ? [stop] : []),
        // The stop of a run none of whose targets could be judged reaches Playwright too, as global setup's error.
        ...this.runErrors.filter((e) => stop === undefined || !e.includes(stop)).map(redact),
        ...(result.status === 'interrupted' ? ['the run was interrupted (a signal, or the first failure with -x)'] : []),
      ],
      deviations: facts.deviations,
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
   * The target's evidence bundle, for a run that ended: an interrupted one leaves none; and its signed
   * attestation, when a key is given. Returns the lines that say where they went, or what is missing.
   */
  private async bundle(report: ConformanceReport, config: TargetConfig, result: FullResult, today: string, configuration?: string): Promise<EvidenceLine[]> {
    // No verdict is the reason a run signs nothing, before whatever became of its bundle.
    const unsigned = (why: string) => (config.signing ? [none(`  attestation: none, ${noVerdictToSign(report) ?? why}`)] : []);
    if (result.status === 'interrupted' || result.status === 'timedout') {
      await discardEvidence(config.reportDir);
      return [none('  evidence: none, the run did not end'), ...unsigned('the run did not end')];
    }
    let bundle: Awaited<ReturnType<typeof writeEvidenceBundle>>;
    try {
      bundle = await writeEvidenceBundle(report, { reportDir: config.reportDir, evidenceDir: config.evidenceDir, replayOf: report.replay?.bundle }, today);
    } catch (error) {
      // The verdict stands on the judged answers, which the reports hold; only their bundle is missing.
      await discardEvidence(config.reportDir);
      return [
        none(`  evidence: none, it could not be written (${stripAnsi(String((error as Error).message ?? error))})`),
        ...unsigned('there is no evidence bundle to sign'),
      ];
    }
    if (!bundle.written) return unsigned('there is no evidence bundle to sign');
    const line = bundle.tooLarge ? none(`  evidence: ${bundle.written}, but ${bundle.tooLarge}`) : wentTo(`  evidence: ${bundle.written}`);
    return [line, ...(config.signing ? [attestationLine(report, bundle.written, config, configuration)] : [])];
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    try {
      return await this.report(result);
    } catch (error) {
      // A report that cannot be written (a full disk, a folder taken away) leaves the run without a verdict: one
      // line, and the folder as it was, its incomplete report whole (each file is written whole or not at all).
      const { code, message } = error as NodeJS.ErrnoException;
      process.stderr.write(`conformance: no verdict: the reports could not be written (${visible(code ?? message ?? String(error))})\n`);
      return this.settle('incomplete', EXIT_CODE.incomplete);
    }
  }

  private async report(result: FullResult): Promise<{ status: FullResult['status'] }> {
    // A run that timed out may have left its judging unfinished: nothing it writes may come after the reports.
    const end = await judgingEnd();
    const judgement = end && 'judgement' in end ? end.judgement : undefined;
    const run = runTargets();
    const today = judgement?.today ?? new Date().toISOString().slice(0, 10);
    const stepSummary = process.env.GITHUB_STEP_SUMMARY;
    const built = run.targets.map((config, i) => this.reportOf(config, judgement?.targets[i], judgement?.replays, result, today));
    // Every target's report is compared with the baseline before any is written: the comparison is in each.
    const compared = run.baseline ? compareWithBaseline(built, run.baseline, run.gate) : built;
    const reports: { report: ConformanceReport; path: string }[] = [];
    // A fleet's targets get a line each where they do not pass; a few targets, each its closing block.
    const fleet = isFleet(run);
    for (const [i, config] of run.targets.entries()) {
      const report = withoutSecrets(compared[i], config);
      const files = writeArtifacts(report, config.reportDir, run.multi ? undefined : stepSummary);
      const page = path.relative(run.reportDir, path.join(config.reportDir, 'index.html'));
      const evidenceDir = config.evidenceDir && run.multi ? path.join(config.evidenceDir, slug(config.name)) : config.evidenceDir;
      const evidence = await this.bundle(report, { ...config, evidenceDir }, result, today, judgement?.targets[i]?.facts.configuration);
      // A fleet's target that passes has no line, but what is missing of its evidence does.
      const lines = (shown: EvidenceLine[]) => shown.map((e) => `${e.line}\n`).join('');
      if (!fleet) process.stdout.write(consoleSummary(report, files) + lines(evidence));
      else process.stdout.write((report.verdict === 'pass' ? '' : consoleLine(report, page)) + lines(evidence.filter((e) => e.missing)));
      reports.push({ report, path: page });
    }
    // In a GitHub Actions job the failed clauses are also annotations, which the runner reads from this log.
    if (process.env.GITHUB_ACTIONS === 'true') for (const line of annotations(reports.map((r) => r.report))) process.stdout.write(`${line}\n`);
    const exitCode = runExitCode(
      reports.map((r) => r.report),
      run.multi,
      run.shard,
    );
    if (!run.multi) return this.settle(reports[0].report.verdict, exitCode);
    const gate = matrixGate(
      reports.map((r) => r.report),
      exitCode,
    );
    const matrix = { ...buildMatrixReport(reports, result.duration, run.shard), ...(gate && { gate }) };
    const files = writeMatrixArtifacts(
      matrix,
      reports.map((r) => r.report),
      run.reportDir,
      stepSummary,
    );
    process.stdout.write(
      `\nConformance matrix${matrix.shard ? ` of shard ${matrix.shard}` : ''}: ${VERDICT_LABEL[matrix.verdict]}, ${matrix.targets.filter((t) => t.verdict === 'pass').length} of ${matrix.targets.length} targets pass${matrix.shard ? ` (the run has ${matrix.runTargets?.length}: merge the shards' report folders for its verdict)` : ''}\n${files.map((f) => `  report: ${f}`).join('\n')}\n`,
    );
    if (gate) process.stdout.write(`  ${gate.text}\n`);
    return this.settle(matrix.verdict, exitCode);
  }

  /**
   * The exit code the gate gave (reporters/gate.ts) as the run's status and the command's exit code, whatever
   * reporters the user adds or replaces; the verdict goes with it, as the report says it.
   */
  private settle(verdict: Verdict, exitCode: number): { status: FullResult['status'] } {
    tellTheCommand({ verdict, exitCode });
    return { status: exitCode === 0 ? 'passed' : 'failed' };
  }
}
