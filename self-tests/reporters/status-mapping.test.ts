import { expect, test } from '@playwright/test';
import type { ClauseRun } from '../../harness/judging/verdicts.ts';
import { renderBadge } from '../../reporters/badge.ts';
import { buildConformanceReport, EXIT_CODE, type ClauseStatus, type ConformanceReport } from '../../reporters/conformance-result.ts';
import { renderCtrf, type CtrfReport } from '../../reporters/ctrf.ts';
import { renderHtml } from '../../reporters/html.ts';
import { renderJunit } from '../../reporters/junit.ts';
import { renderConformancePage } from '../../reporters/markdown.ts';
import { VERDICT_LABEL } from '../../reporters/sections.ts';
import { CLAUSE_STATUS_ORDER, STATUSES } from '../../reporters/statuses.ts';
import { clauseLine } from '../../tests/terminal.ts';
import { leaveChromium, sharedChromium } from '../support/browser.ts';
import { ctrfSchemaErrors } from '../support/ctrf-schema.ts';
import { ONE_CLAUSE_PER_STATUS } from '../support/every-status.ts';
import { CLAUSE_STATUSES, reportSchemaErrors } from '../support/report-schema.ts';
import { runMeta } from '../support/run-meta.ts';

// One table (reporters/statuses.ts) says what each status of a clause is in every format. Each status is put
// in a report of its own, beside a clause that passed, and every format's output is read back against the
// table and against the format's own schema: conformance.json, the page, the conformance page, the console's
// line, JUnit (read by Chromium's XML parser, checked for the common JUnit shape), CTRF, the badge and the exit code.

const PROFILES = [
  { name: 'core', title: 'core', needs: 'the admin token' },
  { name: 'tokens', title: 'tokens', needs: 'CONFORMANCE_SIGNUP_TOKENS' },
];

/** The clause of every-status.ts that ends with `status`, and the run that leads to it (none for not judged). */
const CLAUSE_OF: Record<ClauseStatus, { id: string; run?: ClauseRun['outcome'] }> = {
  passed: { id: 'a.passed', run: 'passed' },
  failed: { id: 'b.failed', run: 'failed' },
  errored: { id: 'c.errored', run: 'errored' },
  'known-deviation': { id: 'd.deviation', run: 'failed' },
  'not-exercised': { id: 'e.not-exercised', run: 'not-exercised' },
  'not-judged': { id: 'f.not-judged' },
  observed: { id: 'g.observed', run: 'passed' },
};

/** A report of a clause that passed and the one clause that ends with `status`. */
function reportWith(status: ClauseStatus): ConformanceReport {
  const { id, run } = CLAUSE_OF[status];
  const catalogue = ONE_CLAUSE_PER_STATUS.filter((c) => c.id === 'a.passed' || c.id === id);
  const runs: ClauseRun[] = [
    { clause: 'a.passed', outcome: 'passed' },
    ...(run && id !== 'a.passed' ? [{ clause: id, outcome: run, reason: `${status}, as the test wants` }] : []),
  ];
  return buildConformanceReport(catalogue, runs, runMeta({ profiles: PROFILES, deviations: [{ clause: 'd.deviation', reason: 'accepted until fixed' }] }));
}

test('the table maps every status conformance.json lists, and no other', () => {
  expect([...CLAUSE_STATUS_ORDER].sort()).toEqual([...CLAUSE_STATUSES].sort());
});

for (const status of CLAUSE_STATUS_ORDER) {
  const mapping = STATUSES[status];
  test(`a clause ${mapping.label} is "${mapping.label}" on the page and the console, ${mapping.junit} in JUnit, ${mapping.ctrf} in CTRF, and the verdict is ${mapping.verdict}`, () => {
    const report = reportWith(status);
    const { id } = CLAUSE_OF[status];
    const clause = report.clauses.find((c) => c.id === id)!;
    // conformance.json: the status, counted under its key, valid against the report's schema.
    expect(clause.status).toBe(status);
    expect(report.summary[mapping.count]).toBe(1);
    expect(reportSchemaErrors(report)).toEqual([]);
    // The page and the console say the table's word.
    expect(renderHtml(report)).toContain(`<span class="pill ${status}">${mapping.label}</span>`);
    expect(clauseLine({ id, title: clause.title, status })).toMatch(new RegExp(`^  ${mapping.mark} ${mapping.label} *  ${id.replace('.', '\\.')}  `));
    if (clause.level === 'MUST' && status !== 'passed') expect(renderConformancePage(report)).toContain(`### \`${id}\`: ${mapping.label} (section`);
    // CTRF: the table's status, valid against CTRF's published schema.
    const ctrf: CtrfReport = JSON.parse(renderCtrf(report));
    expect(ctrfSchemaErrors(ctrf)).toEqual([]);
    expect(ctrf.results.tests.find((t) => t.testId === id)).toMatchObject({ status: mapping.ctrf, rawStatus: status });
    // The verdict, its exit code and the badge's word.
    expect(report.verdict).toBe(mapping.verdict);
    expect(EXIT_CODE[report.verdict]).toBe({ pass: 0, fail: 1, error: 3, partial: 3 }[mapping.verdict]);
    expect(renderBadge(report)).toContain(`>${VERDICT_LABEL[mapping.verdict]}`);
  });
}

/** A junit.xml read by Chromium's XML parser: its shape against the common JUnit schema, and each testcase's element. */
function readJunit(xml: string) {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const problems: string[] = [];
  if (doc.querySelector('parsererror')) problems.push('not well-formed');
  const root = doc.documentElement;
  if (root.tagName !== 'testsuites') problems.push(`root <${root.tagName}>`);
  const cases: Record<string, string> = {};
  for (const suite of root.children) {
    if (suite.tagName !== 'testsuite') problems.push(`<${suite.tagName}> in <testsuites>`);
    for (const a of ['name', 'tests', 'failures', 'errors', 'skipped', 'time']) if (!suite.hasAttribute(a)) problems.push(`testsuite without ${a}`);
    const tally = { tests: 0, failures: 0, errors: 0, skipped: 0 };
    for (const child of suite.children) {
      if (['properties', 'system-out', 'system-err'].includes(child.tagName)) continue;
      if (child.tagName !== 'testcase') problems.push(`<${child.tagName}> in <testsuite>`);
      for (const a of ['name', 'classname', 'time']) if (!child.hasAttribute(a)) problems.push(`testcase without ${a}`);
      const outcomes = [...child.children].filter((e) => !['properties', 'system-out', 'system-err'].includes(e.tagName));
      if (outcomes.length > 1 || outcomes.some((e) => !['failure', 'error', 'skipped'].includes(e.tagName)))
        problems.push(`testcase holds ${outcomes.map((e) => e.tagName)}`);
      if (outcomes.some((e) => !e.hasAttribute('message'))) problems.push('an outcome without its message');
      tally.tests += 1;
      const element = outcomes[0]?.tagName ?? 'none';
      if (element === 'failure') tally.failures += 1;
      if (element === 'error') tally.errors += 1;
      if (element === 'skipped') tally.skipped += 1;
      cases[child.querySelector('property[name="clause"]')?.getAttribute('value') ?? ''] = element;
    }
    for (const [a, n] of Object.entries(tally))
      if (suite.getAttribute(a) !== String(n)) problems.push(`testsuite ${a}="${suite.getAttribute(a)}", ${n} counted`);
  }
  return { problems, cases };
}

test('JUnit holds for each status the element the table names, in the common JUnit shape, its counts those of CTRF', async () => {
  const browser = await sharedChromium();
  try {
    const page = await browser.newPage();
    for (const status of CLAUSE_STATUS_ORDER) {
      const report = reportWith(status);
      const junit = await page.evaluate(readJunit, renderJunit([report]));
      expect(junit.problems).toEqual([]);
      expect(junit.cases[CLAUSE_OF[status].id]).toBe(STATUSES[status].junit);
      // JUnit's four counts and CTRF's agree: passed, failed, errored (other) and skipped.
      const ctrf: CtrfReport = JSON.parse(renderCtrf(report));
      const elements = Object.values(junit.cases);
      const of = (e: string) => elements.filter((x) => x === e).length;
      expect({ passed: of('none'), failed: of('failure'), other: of('error'), skipped: of('skipped') }).toEqual({
        passed: ctrf.results.summary.passed,
        failed: ctrf.results.summary.failed,
        other: ctrf.results.summary.other,
        skipped: ctrf.results.summary.skipped,
      });
    }
    // The shape check fails on a testcase that holds two outcomes and on a count that lies.
    const broken = await page.evaluate(
      readJunit,
      '<testsuites><testsuite name="t" tests="1" failures="0" errors="0" skipped="0" time="0"><testcase name="x" classname="c" time="0"><failure message="m"/><skipped message="s"/></testcase></testsuite></testsuites>',
    );
    expect(broken.problems).toEqual(['testcase holds failure,skipped', 'testsuite failures="0", 1 counted']);
  } finally {
    await leaveChromium(browser);
  }
});
