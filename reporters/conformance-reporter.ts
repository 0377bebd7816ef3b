import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError } from '@playwright/test/reporter';
import { loadCatalogue } from '../harness/catalogue.ts';
import { loadConfig } from '../harness/config.ts';
import { contractsHash } from '../harness/contracts.ts';
import type { ClauseEvidence } from '../harness/evidence.ts';
import { REQUEST_LOG, type RequestLog } from '../harness/global-setup.ts';
import { createRedactor, type Redactor } from '../harness/redact.ts';
import { SUITE_VERSION } from '../harness/recording.ts';
import { writeArtifacts } from './artifacts.ts';
import { buildConformanceReport, type ClauseRun, type JudgedStatus } from './conformance-result.ts';
import { consoleSummary } from './console-summary.ts';

// Playwright colours its messages; the report keeps plain text.
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

function annotation(test: TestCase, type: string, result = test.results.at(-1)): string | undefined {
  return [...(result?.annotations ?? []), ...test.annotations].find((a) => a.type === type)?.description;
}

function clauseRun(test: TestCase, redact: Redactor): ClauseRun | undefined {
  const clause = annotation(test, 'clause');
  if (!clause) return undefined;
  const result = test.results.at(-1);
  const evidence = result?.attachments.find((a) => a.name === 'conformance-evidence')?.body;
  const error = result?.errors.map((e) => stripAnsi(e.message ?? e.value ?? '')).join('\n');
  return {
    clause,
    status: result?.status ?? 'skipped',
    outcome: annotation(test, 'outcome', result) as JudgedStatus | undefined,
    evidence: evidence ? (JSON.parse(redact(evidence.toString())) as ClauseEvidence) : undefined,
    error: error ? redact(error) : undefined,
    skipReason: annotation(test, 'skip', result),
  };
}

function readRequestLog(reportDir: string): RequestLog | undefined {
  const file = path.join(reportDir, REQUEST_LOG);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RequestLog) : undefined;
}

/** Builds the conformance report at the end of the run, writes its renderings, and sets the exit status from it. */
export default class ConformanceReporter implements Reporter {
  private suite?: Suite;
  private startedAt = new Date();
  private readonly runErrors: string[] = [];

  onBegin(_config: FullConfig, suite: Suite): void {
    this.suite = suite;
    this.startedAt = new Date();
  }

  onError(error: TestError): void {
    this.runErrors.push(stripAnsi(error.message ?? error.value ?? 'unknown error'));
  }

  printsToStdio(): boolean {
    return true;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    const config = loadConfig();
    const redact = createRedactor(config);
    const log = readRequestLog(config.reportDir);
    const runs = (this.suite?.allTests() ?? []).map((t) => clauseRun(t, redact)).filter((r): r is ClauseRun => r !== undefined);
    const report = buildConformanceReport(loadCatalogue(), runs, {
      suiteVersion: SUITE_VERSION,
      contractsHash: contractsHash(),
      target: { name: config.name, baseUrl: config.baseUrl, embedded: config.embedded, reportedVersion: log?.reportedVersion },
      startedAt: this.startedAt.toISOString(),
      durationMs: Date.now() - this.startedAt.getTime(),
      runStatus: result.status,
      runErrors: this.runErrors.map(redact),
      deviations: config.deviations,
      today: new Date().toISOString().slice(0, 10),
      requests: log && { count: log.requests.length, methods: [...new Set(log.requests.map((r) => r.method))] },
    });
    const files = writeArtifacts(report, config.reportDir, process.env.GITHUB_STEP_SUMMARY);
    process.stdout.write(consoleSummary(report, [...files, path.join(config.reportDir, 'junit.xml')]));
    return { status: report.verdict === 'pass' ? 'passed' : 'failed' };
  }
}
