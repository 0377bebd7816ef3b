import { visible } from '../harness/files/visible.ts';
import type { ClauseResult, ReportView } from './conformance-result.ts';
import { junitTransition } from './history-render.ts';
import { STATUSES, type JunitElement } from './statuses.ts';
import { claimText, firstErroredText, firstViolationText, headline, NO_TARGET, verdictText } from './sections.ts';

// JUnit as CI systems read it, from the report: a failed clause is a <failure>, an errored one an <error> (an
// unreachable target errors every clause), a clause not exercised, not judged or only observed is <skipped> with
// why, and so is a known deviation (a violation accepted, not a pass), as statuses.ts maps every format. Each target is a testsuite
// whose properties state the verdict and the claim. Every quoted string has its hidden characters shown first.

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (text: string) => visible(text, 'block').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
const attribute = (text: string) => xml(text).replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
const property = (name: string, value: string) => `<property name="${attribute(name)}" value="${attribute(value)}"/>`;

/** Why a skipped clause was not judged for a verdict, in the status's own word. */
function skippedMessage(c: ClauseResult): string {
  if (c.status === 'observed') return 'observed: recorded, never judged (the document leaves it open)';
  if (c.status === 'known-deviation') return `known deviation, not counted until it expires: ${c.deviation?.reason ?? ''}; violated: ${firstViolationText(c)}`;
  return `${STATUSES[c.status].label}: ${c.reason ?? ''}`;
}

/** What a clause's testcase holds besides its properties, as the one table (statuses.ts) says: its failure, error or reason for being skipped. */
function outcomeElement(c: ClauseResult): string {
  switch (STATUSES[c.status].junit) {
    case 'failure': {
      const message = firstViolationText(c);
      return `<failure message="${attribute(message)}" type="violation">${xml(c.reason ?? message)}</failure>`;
    }
    case 'error': {
      const message = firstErroredText(c);
      return `<error message="${attribute(message)}" type="errored">${xml(c.reason ?? message)}</error>`;
    }
    case 'skipped':
      return `<skipped message="${attribute(skippedMessage(c))}"/>`;
    case 'none':
      return '';
  }
}

function testcase(c: ClauseResult): string {
  const properties = [
    property('clause', c.id),
    property('section', c.section),
    property('level', c.level),
    ...(c.profile ? [property('profile', c.profile)] : []),
    property('status', c.status),
    ...(c.deviation ? [property('deviation', `${c.deviation.state}: ${c.deviation.reason}`)] : []),
    ...junitTransition(c).map(([name, value]) => property(name, value)),
  ];
  return `<testcase name="${attribute(`${c.title} [${c.id}]`)}" classname="${attribute(`section ${c.section}`)}" time="0"><properties>${properties.join('')}</properties>${outcomeElement(c)}</testcase>`;
}

export const junitCounts = (clauses: Pick<ClauseResult, 'status'>[]) => {
  const of = (element: JunitElement) => clauses.filter((c) => STATUSES[c.status].junit === element).length;
  return { tests: clauses.length, failures: of('failure'), errors: of('error'), skipped: of('skipped') };
};

/**
 * A report's testsuite, rendered once: a fleet's target has it in its own junit.xml and in the run's (junit-parts.ts),
 * from the one report, which no one changes once built.
 */
const rendered = new WeakMap<ReportView, string>();
export function testsuite(report: ReportView): string {
  let suite = rendered.get(report);
  if (suite === undefined) rendered.set(report, (suite = renderTestsuite(report)));
  return suite;
}

/** One target's testsuite element. */
function renderTestsuite(report: ReportView): string {
  const n = junitCounts(report.clauses);
  const properties = [
    property('verdict', report.verdict),
    property('headline', `${headline(report)}: ${verdictText(report)}`),
    property('claim', claimText(report.claim)),
    property('claim.profiles', report.claim.profiles.join(',')),
    ...report.claim.byProfile.map((p) => property(`profile.${p.name}`, `${p.claimed ? 'claimed' : 'not claimed'}, ${p.status}`)),
    property('target', report.target ? `${report.target.name} (${report.target.baseUrl})` : NO_TARGET),
    property('suite', `${report.suite.name} ${report.suite.version}, contracts ${report.suite.contractsHash}`),
    property('document.sha256', report.document.sha256),
    ...report.errors.map((e) => property('error', e)),
  ];
  const name = report.target?.name ?? NO_TARGET;
  return `<testsuite name="${attribute(name)}" tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" timestamp="${attribute(report.startedAt)}" time="${(report.durationMs / 1000).toFixed(3)}">
<properties>${properties.join('')}</properties>
${report.clauses.map(testcase).join('\n')}
</testsuite>`;
}

/** junit.xml of one or several targets' reports, one testsuite each. */
export function renderJunit(reports: ReportView[]): string {
  const all = junitCounts(reports.flatMap((r) => r.clauses));
  const time = Math.max(0, ...reports.map((r) => r.durationMs)) / 1000;
  return `${junitOpening(all, time)}${reports.map(testsuite).join('\n')}${JUNIT_CLOSING}`;
}

/** The opening of junit.xml, with the counts of every testsuite it holds and the longest one's time in seconds. */
export const junitOpening = (all: ReturnType<typeof junitCounts>, seconds: number) => `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="admin-api-conformance" tests="${all.tests}" failures="${all.failures}" errors="${all.errors}" skipped="${all.skipped}" time="${seconds.toFixed(3)}">
`;

export const JUNIT_CLOSING = `
</testsuites>
`;
