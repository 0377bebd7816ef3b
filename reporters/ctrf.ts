import { visible } from '../harness/files/visible.ts';
import type { ClauseResult, ClauseStatus, ReportView } from './conformance-result.ts';
import type { MatrixReport } from './matrix-result.ts';
import { STATUSES, type CtrfStatus } from './statuses.ts';
import { claimText, firstErroredText, firstViolationText, headline, SECTION_TITLES, verdictText } from './sections.ts';
import { ctrfHistory } from './history-render.ts';

// ctrf.json: the report in the Common Test Report Format (https://ctrf.io), which test-report viewers and CI
// plugins read. One test per clause, its id the stable testId; CTRF's five statuses carry less than the suite's
// seven (statuses.ts maps them, as it maps JUnit's), so each test keeps the suite's own status in rawStatus and
// none is ever read as a pass that was not one.
// A pure function of the report, as every rendering is, so that verify can render it again and compare.

/** The version of CTRF's specification the file follows (its specVersion). */
export const CTRF_SPEC_VERSION = '1.0.0';

export type { CtrfStatus };

/** The CTRF status of each status of the suite's, from the one table (statuses.ts), which says why. */
export const CTRF_STATUS = Object.fromEntries(Object.entries(STATUSES).map(([status, m]) => [status, m.ctrf])) as Record<ClauseStatus, CtrfStatus>;

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

/** What the file says of the run as a whole, beside its tests: one target's facts, or the matrix's. */
export interface RunFacts {
  verdict: ReportView['verdict'];
  headline: string;
  completed: boolean;
  errors: string[];
  shard?: string;
  /** One target's alone: a matrix's targets each have theirs in their own file. */
  target?: ReportView;
  /** A matrix's alone: each target's verdict and counts. */
  targets?: { name: string; verdict: ReportView['verdict'] }[];
}

/** ctrf.json of one target's report. */
export function renderCtrf(report: ReportView): string {
  const headlineText = `${headline(report)}: ${verdictText(report)}`;
  return ctrfOf([report], {
    verdict: report.verdict,
    headline: headlineText,
    completed: report.completed,
    errors: report.errors,
    shard: report.shard,
    target: report,
  });
}

/**
 * ctrf.json of a run over several targets: every target's tests, each named and suited by its target, and the
 * matrix's verdict. A viewer reads one file per job, as it reads one junit.xml.
 */
export function renderMatrixCtrf(m: MatrixReport, reports: ReportView[]): string {
  return ctrfOf(reports, matrixFacts(m));
}

/** What a matrix's ctrf.json says of the run as a whole. */
export function matrixFacts(m: MatrixReport): RunFacts {
  const passing = m.targets.filter((t) => t.verdict === 'pass').length;
  return {
    verdict: m.verdict,
    headline: `${headline(m)}: ${passing} of ${m.targets.length} targets pass`,
    completed: m.completed,
    errors: m.errors,
    shard: m.shard,
    targets: m.targets.map((t) => ({ name: t.name, verdict: t.verdict })),
  };
}

/** The tests of one target of several, each named and suited by its target. */
export const targetTests = (r: ReportView): CtrfTest[] =>
  r.clauses.map((c) => {
    const test = testOf(c, r.target?.name);
    const name = r.target?.name ?? '';
    return { ...test, name: `${name}: ${test.name}`, suite: [name, ...test.suite] };
  });

/** The tests of these reports, named and suited by their target when there are several. */
function testsOf(reports: ReportView[]): CtrfTest[] {
  return reports.length > 1 ? reports.flatMap(targetTests) : reports.flatMap((r) => r.clauses.map((c) => testOf(c, r.target?.name)));
}

/** What the summary counts of the tests, and when the run began and how long its longest target took. */
export interface CtrfTally {
  counts: Record<CtrfStatus, number>;
  start: number;
  duration: number;
}

/** The tally of these tests, of reports that began at `start` and took at most `duration`. */
export function ctrfTally(tests: Pick<CtrfTest, 'status'>[], start: number, duration: number, into?: CtrfTally): CtrfTally {
  const tally = into ?? { counts: { passed: 0, failed: 0, skipped: 0, pending: 0, other: 0 }, start, duration };
  for (const t of tests) tally.counts[t.status]++;
  return { counts: tally.counts, start: Math.min(tally.start, start), duration: Math.max(tally.duration, duration) };
}

function ctrfOf(reports: ReportView[], run: RunFacts): string {
  const tests = testsOf(reports);
  const tally = ctrfTally(tests, Math.min(...reports.map((r) => Date.parse(r.startedAt))), Math.round(Math.max(...reports.map((r) => r.durationMs))));
  return `${JSON.stringify(ctrfShell(reports[0], run, tally, tests), null, 2)}\n`;
}

/** ctrf.json around its tests: the tool, the summary of the tally, the environment and the run's facts. */
export function ctrfShell(first: Pick<ReportView, 'suite' | 'document'>, run: RunFacts, tally: CtrfTally, tests: CtrfTest[]): CtrfReport {
  const { suite, document } = first;
  const { counts, start, duration } = tally;
  const one = run.target;
  const ctrf: CtrfReport = {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    generatedBy: `${suite.name} ${suite.version}`,
    results: {
      tool: { name: suite.name, version: suite.version, extra: { [`${NS}.contractsHash`]: suite.contractsHash } },
      summary: {
        tests: Object.values(counts).reduce((a, b) => a + b, 0),
        ...counts,
        start,
        stop: start + duration,
        duration,
      },
      tests,
      environment: {
        ...(one?.product && { appName: one.product.name, ...(one.product.version && { appVersion: one.product.version }) }),
        ...(one?.target && { testEnvironment: one.target.name }),
        ...(run.shard && { shardId: run.shard }),
        // Healthy is what the suite's verdict says: a pass, and nothing less.
        healthy: run.verdict === 'pass',
        extra: {
          [`${NS}.document`]: document,
          ...(one?.target && { [`${NS}.target`]: one.target }),
          ...(one?.replay && { [`${NS}.replay`]: one.replay }),
        },
      },
      extra: {
        [`${NS}.verdict`]: run.verdict,
        [`${NS}.verdictText`]: run.headline,
        ...(one && { [`${NS}.claim`]: claimText(one.claim) }),
        [`${NS}.completed`]: run.completed,
        [`${NS}.errors`]: run.errors,
        ...(one ? { [`${NS}.summary`]: one.summary } : { [`${NS}.targets`]: run.targets }),
      },
    },
  };
  return ctrf;
}
