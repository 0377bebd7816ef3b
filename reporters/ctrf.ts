import { visible } from '../harness/files/visible.ts';
import type { ClauseResult, ClauseStatus, ReportView } from './conformance-result.ts';
import { claimText, firstErroredText, firstViolationText, headline, SECTION_TITLES, verdictText } from './sections.ts';
import { ctrfHistory } from './history-render.ts';

// ctrf.json: the report in the Common Test Report Format (https://ctrf.io), which test-report viewers and CI
// plugins read. One test per clause, its id the stable testId; CTRF's five statuses carry less than the suite's
// seven, so each test keeps the suite's own status in rawStatus and none is ever read as a pass that was not one.
// A pure function of the report, as every rendering is, so that verify can render it again and compare.

/** The version of CTRF's specification the file follows (its specVersion). */
export const CTRF_SPEC_VERSION = '1.0.0';

export type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other';

/**
 * The CTRF status of each status of the suite's. `failed` counts exactly what the suite counts as failed (so a
 * reader that gates on CTRF's failures gates as the verdict does), `passed` exactly what it counts as passed:
 * - errored: no verdict was possible (an unreachable target, an answer that could not be read): not a pass, and
 *   no violation of the target's either, so `other`;
 * - known-deviation: a violation the user accepts until it expires: the target does not meet the clause, so not
 *   `passed`, and the verdict does not count it, so not `failed`: `other`, its reason in the message;
 * - observed: an INFO clause recorded and never judged, since the document leaves it open: it ran, so it is not
 *   skipped, and nothing passed: `other`;
 * - not-exercised (the run lacked the input the clause needs) and not-judged (its test was left out of the run,
 *   or the run stopped before it): the clause was not checked, `skipped`.
 * `pending` (a test declared and not yet written) is none of the suite's.
 */
export const CTRF_STATUS: Record<ClauseStatus, CtrfStatus> = {
  passed: 'passed',
  failed: 'failed',
  errored: 'other',
  'known-deviation': 'other',
  observed: 'other',
  'not-exercised': 'skipped',
  'not-judged': 'skipped',
};

/** The namespace of this suite's keys in CTRF's `extra` objects, as CTRF asks of every producer. */
const NS = 'admin-api-conformance';

export interface CtrfTest {
  name: string;
  testId: string;
  status: CtrfStatus;
  rawStatus: ClauseStatus;
  duration: number;
  suite: string[];
  type: string;
  message?: string;
  trace?: string;
  labels: Record<string, string>;
  /** CTRF's own: the history (CONFORMANCE_HISTORY) calls the clause flaky; its status is still its status. */
  flaky?: boolean;
  extra?: Record<string, unknown>;
}

export interface CtrfReport {
  reportFormat: 'CTRF';
  specVersion: string;
  generatedBy: string;
  results: {
    tool: { name: string; version: string; extra: Record<string, unknown> };
    summary: Record<CtrfStatus | 'tests' | 'start' | 'stop' | 'duration', number>;
    tests: CtrfTest[];
    environment: Record<string, unknown>;
    extra: Record<string, unknown>;
  };
}

const line = (text: string) => visible(text);

/** What a test says of its clause beyond its status, on one line: the first violation, the obstacle, or why it was not checked. */
function messageOf(c: ClauseResult): string | undefined {
  switch (c.status) {
    case 'passed':
      return undefined;
    case 'failed':
      return firstViolationText(c);
    case 'errored':
      return `errored, no verdict: ${firstErroredText(c)}`;
    case 'known-deviation':
      return `known deviation, not counted until it expires: ${c.deviation?.reason ?? ''}; violated: ${firstViolationText(c)}`;
    case 'observed':
      return 'observed: recorded, never judged (the document leaves it open)';
    case 'not-exercised':
      return `not exercised: ${c.reason ?? ''}`;
    case 'not-judged':
      return `not judged: ${c.reason ?? ''}`;
  }
}

function testOf(c: ClauseResult, target: string | undefined): CtrfTest {
  const message = messageOf(c);
  const history = ctrfHistory(c);
  // Every violation or obstacle, as the report words them, where there is more than the message's first.
  const trace = c.status !== 'passed' && c.reason && c.reason !== message ? visible(c.reason, 'block') : undefined;
  return {
    name: `${c.title} [${c.id}]`,
    testId: c.id,
    status: CTRF_STATUS[c.status],
    rawStatus: c.status,
    duration: 0,
    suite: [`${c.section} ${SECTION_TITLES[c.section] ?? ''}`.trim()],
    type: 'conformance',
    ...(message !== undefined && { message: line(message) }),
    ...(trace !== undefined && { trace }),
    labels: {
      clause: c.id,
      section: c.section,
      level: c.level,
      ...(c.profile && { profile: c.profile }),
      ...(target !== undefined && { target: line(target) }),
      ...history.labels,
    },
    ...(history.flaky && { flaky: true }),
    ...(c.deviation && { extra: { [`${NS}.deviation`]: c.deviation } }),
  };
}

/** ctrf.json of one target's report. */
export function renderCtrf(report: ReportView): string {
  const tests = report.clauses.map((c) => testOf(c, report.target?.name));
  const count = (status: CtrfStatus) => tests.filter((t) => t.status === status).length;
  const start = Date.parse(report.startedAt);
  const duration = Math.round(report.durationMs);
  const ctrf: CtrfReport = {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    generatedBy: `${report.suite.name} ${report.suite.version}`,
    results: {
      tool: { name: report.suite.name, version: report.suite.version, extra: { [`${NS}.contractsHash`]: report.suite.contractsHash } },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
        pending: count('pending'),
        other: count('other'),
        start,
        stop: start + duration,
        duration,
      },
      tests,
      environment: {
        ...(report.product && { appName: report.product.name, ...(report.product.version && { appVersion: report.product.version }) }),
        ...(report.target && { testEnvironment: report.target.name }),
        ...(report.shard && { shardId: report.shard }),
        // Healthy is what the suite's verdict says: a pass, and nothing less.
        healthy: report.verdict === 'pass',
        extra: {
          [`${NS}.document`]: report.document,
          ...(report.target && { [`${NS}.target`]: report.target }),
          ...(report.replay && { [`${NS}.replay`]: report.replay }),
        },
      },
      extra: {
        [`${NS}.verdict`]: report.verdict,
        [`${NS}.verdictText`]: `${headline(report)}: ${verdictText(report)}`,
        [`${NS}.claim`]: claimText(report.claim),
        [`${NS}.completed`]: report.completed,
        [`${NS}.errors`]: report.errors,
        [`${NS}.summary`]: report.summary,
      },
    },
  };
  return `${JSON.stringify(ctrf, null, 2)}\n`;
}
