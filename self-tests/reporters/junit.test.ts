import { expect, test } from '@playwright/test';
import type { ClauseRun } from '../../harness/judging/verdicts.ts';
import { buildConformanceReport } from '../../reporters/conformance-result.ts';
import { renderJunit } from '../../reporters/junit.ts';
import { leaveChromium, sharedChromium } from '../support/browser.ts';
import { ONE_CLAUSE_PER_STATUS } from '../support/every-status.ts';
import { runMeta } from '../support/run-meta.ts';

// JUnit tells FAIL from ERROR from SKIP as the report does: read back by a real XML parser (Chromium's), as a
// CI system reads it.

const HOSTILE = 'a "quote" & <tag> \u001b[31m\u202e and ]]> end';
const RUNS: ClauseRun[] = [
  { clause: 'a.passed', outcome: 'passed' },
  { clause: 'b.failed', outcome: 'failed', reason: `violated: ${HOSTILE}` },
  { clause: 'c.errored', outcome: 'errored', reason: `the run errored: ${HOSTILE}` },
  { clause: 'd.deviation', outcome: 'failed', reason: 'violated, and known' },
  { clause: 'e.not-exercised', outcome: 'not-exercised', reason: 'needs CONFORMANCE_SIGNUP_TOKENS' },
  { clause: 'g.observed', outcome: 'passed' },
];
const report = buildConformanceReport(
  ONE_CLAUSE_PER_STATUS,
  RUNS,
  runMeta({
    profiles: [
      { name: 'core', title: 'core', needs: 'the admin token' },
      { name: 'tokens', title: 'tokens', needs: 'CONFORMANCE_SIGNUP_TOKENS' },
    ],
    deviations: [{ clause: 'd.deviation', reason: 'accepted until fixed' }],
  }),
);

test('an errored clause is an <error>, a violation a <failure>, and a known deviation and what was not judged are <skipped> with why', async () => {
  const browser = await sharedChromium();
  try {
    const page = await browser.newPage();
    const parsed = await page.evaluate(
      (xml) => {
        const doc = new DOMParser().parseFromString(xml, 'application/xml');
        const cases = [...doc.querySelectorAll('testcase')].map((c) => ({
          clause: c.querySelector('property[name="clause"]')?.getAttribute('value'),
          status: c.querySelector('property[name="status"]')?.getAttribute('value'),
          elements: [...c.children].map((e) => e.tagName).filter((t) => t !== 'properties'),
          message: c.querySelector('failure, error, skipped')?.getAttribute('message') ?? undefined,
        }));
        const suite = doc.querySelector('testsuite');
        const counts = Object.fromEntries(['tests', 'failures', 'errors', 'skipped'].map((a) => [a, suite?.getAttribute(a)]));
        const properties = Object.fromEntries(
          [...doc.querySelectorAll('testsuite > properties > property')].map((p) => [p.getAttribute('name'), p.getAttribute('value')]),
        );
        return { wellFormed: doc.querySelector('parsererror') === null, cases, counts, properties };
      },
      renderJunit([report]),
    );
    expect(parsed.wellFormed).toBe(true);
    expect(parsed.cases.map((c) => [c.clause, c.status, c.elements])).toEqual([
      ['a.passed', 'passed', []],
      ['b.failed', 'failed', ['failure']],
      ['c.errored', 'errored', ['error']],
      ['d.deviation', 'known-deviation', ['skipped']],
      ['e.not-exercised', 'not-exercised', ['skipped']],
      ['f.not-judged', 'not-judged', ['skipped']],
      ['g.observed', 'observed', ['skipped']],
    ]);
    expect(parsed.counts).toEqual({ tests: '7', failures: '1', errors: '1', skipped: '4' });
    expect(parsed.cases[3].message).toBe('known deviation, not counted until it expires: accepted until fixed; violated: violated, and known');
    expect(parsed.cases[4].message).toBe('not exercised: needs CONFORMANCE_SIGNUP_TOKENS');
    expect(parsed.cases[5].message).toMatch(/^not judged: /);
    // What a target wrote arrives as text: its controls shown as escapes, nothing of it markup.
    expect(parsed.cases[2].message).toContain('the run errored: a "quote" & <tag> \\u001b[31m\\u202e and ]]> end');
    expect(parsed.properties).toMatchObject({ verdict: 'fail', 'claim.profiles': 'core,tokens', 'profile.tokens': 'claimed, not-judged' });
  } finally {
    await leaveChromium(browser);
  }
});
