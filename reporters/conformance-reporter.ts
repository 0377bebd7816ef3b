import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError } from '@playwright/test/reporter';
import { loadCatalogue } from '../harness/catalogue.ts';
import type { TargetConfig } from '../harness/config.ts';
import { reportDirOf } from '../harness/sources.ts';
import { runTargets, slug } from '../harness/targets.ts';
import { check, schemaFile } from '../harness/checked.ts';
import { contractsHash } from '../harness/contracts.ts';
import { specDocument } from '../harness/document.ts';
import type { ClauseEvidence } from '../harness/evidence.ts';
import { REQUEST_LOG, type RequestLog } from '../harness/request-log.ts';
import { createRedactor, type Redactor } from '../harness/redact.ts';
import type { RunFacts } from '../harness/verdicts.ts';
import { visible } from '../harness/visible.ts';
import { SUITE_VERSION, judgedByThisSuite } from '../harness/run-identity.ts';
import { notOneRun } from './one-run.ts';
import { writeArtifacts, writeMatrixArtifacts } from './artifacts.ts';
import { buildConformanceReport, EXIT_CODE, type ClauseRun, type ConformanceReport, type JudgedStatus, type Verdict } from './conformance-result.ts';
import { buildMatrixReport } from './matrix-result.ts';
import { VERDICT_LABEL } from './sections.ts';
import { consoleSummary } from './console-summary.ts';
import { writeEvidenceBundle } from './evidence-bundle.ts';
import { discardEvidence } from '../harness/evidence-stage.ts';
import { STOPPED_ANNOTATION } from '../harness/verdicts-file.ts';
import { stopJudging } from '../harness/judging.ts';

/** Where the command asks the reporter to leave the run's verdict and exit code. */
export const OUTCOME_VARIABLE = 'ADMIN_API_CONFORMANCE_OUTCOME';

// Playwright colours its messages; the report keeps plain text.
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

function annotation(test: TestCase, type: string, result = test.results.at(-1)): string | undefined {
  return [...(result?.annotations ?? []), ...test.annotations].find((a) => a.type === type)?.description;
}

function clauseRun(test: TestCase, redact: Redactor): ClauseRun | undefined {
  const clause = annotation(test, 'clause');
  // A test the run's stop left unjudged ran no check: the clause takes the run's error as its reason.
  if (!clause || annotation(test, STOPPED_ANNOTATION)) return undefined;
  const result = test.results.at(-1);
  const evidence = result?.attachments.find((a) => a.name === 'conformance-evidence')?.body;
  const error = result?.errors.map((e) => stripAnsi(e.message ?? e.value ?? '')).join('\n');
  const read = evidence ? attachment<ClauseEvidence>(evidence, EVIDENCE_SCHEMA, clause) : undefined;
  // Evidence that does not read back is no verdict: the clause is errored, the rest of the report stands.
  if (read && !read.ok) return { clause, status: 'failed', error: read.error };
  return {
    clause,
    status: result?.status ?? 'skipped',
    outcome: annotation(test, 'outcome', result) as JudgedStatus | undefined,
    evidence: read?.value,
    error: error ? redact(error) : undefined,
    skipReason: annotation(test, 'skip', result),
  };
}

const EVIDENCE_SCHEMA = new URL('./conformance-report.schema.json#/$defs/evidence', pathToFileURL(__filename));

/** An attachment read back from a test result (perhaps of a merged shard), checked against its schema. */
function attachment<T>(body: Buffer, schema: URL, of: string): { ok: true; value: T } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString());
  } catch {
    return { ok: false, error: `the attachment of ${of} is not JSON` };
  }
  const read = check<T>(schema, parsed);
  return read.ok ? read : { ok: false, error: `the attachment of ${of} does not match ${path.basename(schema.pathname)}: ${read.errors.join('; ')}` };
}

function projectOf(test: TestCase): string {
  return test.parent.project()?.name ?? '';
}

function readJson<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

function readRequestLog(reportDir: string): RequestLog | undefined {
  return readJson<RequestLog>(path.join(reportDir, REQUEST_LOG));
}

/**
 * The run's facts as the checks saw them. They travel in the test attachments, so that a report merged
 * from shards (`playwright merge-reports`) has them too; when no check ran, the request log has them.
 * Facts of more than one run (shards of two runs merged) are said to be so.
 */
function runFacts(tests: TestCase[], target: RunTarget): { facts: RunFacts; notOneRun?: string } {
  const attached = tests.flatMap((test) =>
    test.results.flatMap((result) => {
      const body = result.attachments.find((a) => a.name === 'conformance-run')?.body;
      const read = body && attachment<RunFacts>(body, schemaFile('run-facts.schema.json'), 'the run');
      return read?.ok ? [read.value] : [];
    }),
  );
  if (attached.length > 0) return { facts: attached[0], notOneRun: notOneRun(attached, judgedByThisSuite()) };
  const log = readRequestLog(target.reportDir);
  return {
    facts: {
      target: log?.target ?? {
        name: target.config?.name ?? target.name,
        baseUrl: target.config?.baseUrl || 'http://127.0.0.1',
        embedded: target.config?.embedded ?? false,
      },
      startedAt: log?.startedAt ?? new Date().toISOString(),
      requests: { count: log?.requests.length ?? 0, methods: [...new Set(log?.requests.map((r) => r.method) ?? [])] },
      deviations: target.config?.deviations ?? [],
      product: target.config?.product,
    },
  };
}

/** One target of the run as the reporter knows it: where its reports go, and its configuration when it can be read. */
interface RunTarget {
  /** The Playwright project of its tests: empty for a single target. */
  name: string;
  reportDir: string;
  config?: TargetConfig;
}

/**
 * The run's targets from its tests' projects and the report folder alone, so that merging shards' blob
 * reports needs no target configuration; the configuration, where it reads, only lends its secrets for
 * redacting run errors.
 */
function reportTargets(tests: TestCase[], configured: string[]): { multi: boolean; reportDir: string; targets: RunTarget[] } {
  const reportDir = reportDirOf(process.env, process.cwd()) ?? path.resolve('conformance-report');
  let configs: TargetConfig[] = [];
  try {
    configs = runTargets().targets;
  } catch {
    // merging shards, or a run stopped by its configuration: the attachments say what the report needs
  }
  // A target whose project --project left out has no test, and is still one of the run's: its clauses are
  // not judged, as a --grep leaves them, and the run cannot pass on the others alone.
  const projects = [...new Set([...configured, ...tests.map(projectOf)])];
  const multi = projects.some((p) => p !== '');
  if (!multi) return { multi, reportDir, targets: [{ name: '', reportDir, config: configs[0] }] };
  return {
    multi,
    reportDir,
    targets: projects.map((name) => ({ name, reportDir: path.join(reportDir, 'targets', slug(name)), config: configs.find((c) => c.name === name) })),
  };
}

/**
 * The run's verdict as its exit status: the command (bin/admin-api-conformance.js) reads the verdict from
 * the outcome file it named, so that the exit code is the same whatever reporters the user adds or replaces.
 */
function settle(verdict: Verdict): { status: FullResult['status'] } {
  const file = process.env[OUTCOME_VARIABLE];
  if (file) writeFileSync(file, `${JSON.stringify({ verdict, exitCode: EXIT_CODE[verdict] })}\n`);
  return { status: verdict === 'pass' ? 'passed' : 'failed' };
}

/** How often a run started by the command looks whether the command is still there. */
const COMMAND_WATCH_MS = 500;

/**
 * A run the command started stops, as for SIGINT (its report marked interrupted), once the command is gone:
 * killed with SIGKILL, which it cannot catch or pass on, the command would otherwise leave the run going on
 * alone, holding the report folder, its verdict read by no one.
 */
function stopWithTheCommand(): void {
  const command = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === command) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGINT');
  }, COMMAND_WATCH_MS);
  watch.unref();
}

/** Builds the conformance report at the end of the run, writes its renderings, and sets the exit status from it. */
export default class ConformanceReporter implements Reporter {
  private suite?: Suite;
  private startedAt = new Date();
  private readonly runErrors: string[] = [];

  private shard?: string;

  /** The projects of the configuration, one a target: those --project leaves out included. */
  private projects: string[] = [];

  /** The run's bound, CONFORMANCE_RUN_TIMEOUT_MS, as Playwright took it. */
  private globalTimeout = 0;

  constructor() {
    // Playwright makes its reporters once it has taken its command line, before global setup: the command
    // (bin/admin-api-conformance.js) tells a run refused before anything was sent by this file's absence.
    const file = process.env[OUTCOME_VARIABLE];
    if (!file) return;
    writeFileSync(file, '{}\n');
    stopWithTheCommand();
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.suite = suite;
    this.projects = config.projects.map((p) => p.name);
    this.shard = config.shard ? `${config.shard.current}/${config.shard.total}` : undefined;
    this.globalTimeout = config.globalTimeout;
    this.startedAt = new Date();
  }

  onError(error: TestError): void {
    this.runErrors.push(stripAnsi(error.message ?? error.value ?? 'unknown error'));
  }

  printsToStdio(): boolean {
    return true;
  }

  private reportOf(target: RunTarget, tests: TestCase[], result: FullResult, today: string): ConformanceReport {
    // A replay holds no secret, only the placeholders that stand for them: nothing to take out but hidden characters.
    const secrets = target.config && !target.config.replay ? createRedactor(target.config) : (text: string) => text;
    // Escapes first, so that no escape written later can spell a secret the redactor did not see.
    const redact = (text: string) => secrets(visible(text, 'block'));
    const { facts, notOneRun: mixed } = runFacts(tests, target);
    // Verdicts of two runs are no verdict on either target: every clause is errored, for that reason.
    const runs = mixed ? [] : tests.map((t) => clauseRun(t, redact)).filter((r): r is ClauseRun => r !== undefined);
    return buildConformanceReport(loadCatalogue(), runs, {
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
          ? [`the run took longer than CONFORMANCE_RUN_TIMEOUT_MS (${this.globalTimeout} ms) and was stopped; give a larger value for a target this slow`]
          : []),
        ...(mixed ? [mixed] : []),
        ...this.runErrors.map(redact),
        ...(result.status === 'interrupted' ? ['the run was interrupted (a signal, or the first failure with -x)'] : []),
      ],
      deviations: facts.deviations,
      today,
      requests: facts.requests,
      shard: this.shard,
      consistency: facts.consistency,
    });
  }

  /** The target's evidence bundle, for a run that ended: an interrupted one leaves none. Returns the line that says where it went. */
  private async bundle(
    report: ConformanceReport,
    target: RunTarget,
    run: { multi: boolean; reportDir: string },
    result: FullResult,
    today: string,
  ): Promise<string> {
    if (result.status === 'interrupted' || result.status === 'timedout') {
      await discardEvidence(target.reportDir);
      return '  evidence: none, the run did not end\n';
    }
    const evidenceDir = target.config?.evidenceDir && (run.multi ? path.join(target.config.evidenceDir, slug(target.name)) : target.config.evidenceDir);
    const junit = run.multi ? undefined : path.join(run.reportDir, 'junit.xml');
    try {
      const bundle = await writeEvidenceBundle(report, { reportDir: target.reportDir, evidenceDir, junit, replayOf: report.replay?.bundle }, today);
      return bundle.written ? `  evidence: ${bundle.written}\n` : '';
    } catch (error) {
      // The verdict stands on the judged answers, which the reports hold; only their bundle is missing.
      await discardEvidence(target.reportDir);
      return `  evidence: none, it could not be written (${stripAnsi(String((error as Error).message ?? error))})\n`;
    }
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    // A run that timed out left its teardown, and so perhaps the judging, unfinished: nothing it writes may come after the reports.
    await stopJudging();
    const tests = this.suite?.allTests() ?? [];
    const run = reportTargets(tests, this.projects);
    const stepSummary = process.env.GITHUB_STEP_SUMMARY;
    const today = new Date().toISOString().slice(0, 10);
    const reports: { report: ConformanceReport; path: string }[] = [];
    for (const target of run.targets) {
      const report = this.reportOf(
        target,
        tests.filter((t) => projectOf(t) === target.name),
        result,
        today,
      );
      const files = writeArtifacts(report, target.reportDir, run.multi ? undefined : stepSummary);
      process.stdout.write(consoleSummary(report, files));
      process.stdout.write(await this.bundle(report, target, run, result, today));
      reports.push({ report, path: path.relative(run.reportDir, path.join(target.reportDir, 'index.html')) });
    }
    if (!run.multi) {
      const junit = path.join(run.reportDir, 'junit.xml');
      if (existsSync(junit)) process.stdout.write(`  report: ${junit}\n`);
      return settle(reports[0].report.verdict);
    }
    const matrix = buildMatrixReport(reports, result.duration);
    const files = writeMatrixArtifacts(matrix, run.reportDir, stepSummary);
    process.stdout.write(
      `\nConformance matrix: ${VERDICT_LABEL[matrix.verdict]}, ${matrix.targets.filter((t) => t.verdict === 'pass').length} of ${matrix.targets.length} targets pass\n${files.map((f) => `  report: ${f}`).join('\n')}\n`,
    );
    return settle(matrix.verdict);
  }
}
