import { expect, test } from '@playwright/test';
import { loadChecks } from '../../checks/index.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadProfiles } from '../../harness/contracts/profiles.ts';
import { judge } from '../../harness/judging/judge.ts';
import { runsOf } from '../../harness/judging/verdicts.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import type { Variant } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { buildConformanceReport, type ConformanceReport } from '../../reporters/conformance-result.ts';
import { mayNarrow } from '../../run/fleet.ts';
import { FleetReplays, replaysOfRun } from '../../run/replays.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';
import { runMeta } from '../support/run-meta.ts';

// A fleet's tests under the command carry each clause's replay added up target by target as each report is
// written and let go (run/replays.ts FleetReplays): it must be, clause for clause, what the tests replay when every
// report is read at once, whatever order the targets' judging ended in.

const catalogue = loadCatalogue();
const fault = (name: string): Variant => FAULTS.find((f) => f.name === name)!;

function reportOf(variant: Variant | undefined, name: string): ConformanceReport {
  const runs = runsOf(catalogue, judge(recordInProcess(variant, REFERENCE_INPUT), REFERENCE_INPUT, loadChecks()), createSecrets(REFERENCE_INPUT));
  return buildConformanceReport(
    catalogue,
    runs,
    runMeta({ target: { name, baseUrl: `https://${name}.example.com`, embedded: false }, profiles: loadProfiles() }),
  );
}

/** A fleet of 40: most faithful, eight enabling an expired token, six over 100 % health, three that left nothing to judge. */
function fleet(): { name: string; report: ConformanceReport; problem?: string }[] {
  const faithful = reportOf(undefined, 'x');
  const expired = reportOf(fault('expired-token-enabled'), 'x');
  const health = reportOf(fault('project-health-above-100'), 'x');
  return Array.from({ length: 40 }, (_, i) => {
    const name = `tenant-${String(i + 1).padStart(2, '0')}`;
    const report = i % 5 === 1 ? expired : i % 7 === 3 ? health : faithful;
    const renamed = { ...report, target: { ...report.target, name } };
    return i % 13 === 12 ? { name, report: renamed, problem: `${name} answered 404 to every request` } : { name, report: renamed };
  });
}

/** The places 0..n-1 in an order that is not theirs: every seventh, round and round. */
const shuffled = (n: number) => Array.from({ length: n }, (_, i) => (i * 7) % n);

test("a fleet's replays added up target by target, in the order their judging ended, are those read off every report at once", () => {
  const targets = fleet();
  const order = shuffled(targets.length);
  expect(new Set(order).size).toBe(targets.length);
  const tally = new FleetReplays();
  for (const place of order) tally.add(place, targets[place].name, targets[place].report, targets[place].problem);
  const whole = replaysOfRun(targets, undefined)[''];
  expect(tally.replays()).toEqual(whole);
  // The fleet shows what the comparison is about: a clause failed by more targets than are named, others passed, one skipped everywhere.
  const expired = whole['signup-token.state.expired-not-enabled'];
  expect(expired.status).toBe('failed');
  expect(expired.share).toBe('8 of 40 targets');
  expect(expired.message).toContain('…and 3 more');
  expect(expired.message?.split('\n')[1]).toMatch(/^tenant-02: /);
  expect(Object.values(whole).some((r) => r.status === 'passed')).toBe(true);
});

test('a fleet of one target each way: a problem target alone skips every clause with its words, as read off its report', () => {
  const [first] = fleet();
  const tally = new FleetReplays();
  tally.add(0, first.name, first.report, 'no answer within 1500 ms');
  const second = new FleetReplays();
  second.add(1, 'b', first.report);
  second.add(0, 'a', first.report, 'no answer within 1500 ms');
  expect(second.replays()).toEqual(
    replaysOfRun(
      [
        { name: 'a', report: first.report, problem: 'no answer within 1500 ms' },
        { name: 'b', report: first.report },
      ],
      undefined,
    )[''],
  );
  expect(Object.values(tally.replays()).every((r) => r.status === 'not-judged' && r.message?.includes('no answer within 1500 ms'))).toBe(true);
});

test("a fleet streams under the command only where nothing on Playwright's command line can narrow its tests", () => {
  const argv = (...args: string[]) => ['node', 'cli.js', 'test', '--config', 'tests/playwright.config.ts', ...args];
  for (const harmless of [
    [],
    ['--reporter', 'dot,./reporter.ts'],
    ['--reporter=line'],
    ['-j', '1', '-x', '--quiet'],
    ['--max-failures=2', '--timeout', '9000'],
  ])
    expect(mayNarrow(argv(...harmless)), harmless.join(' ')).toBe(false);
  const narrowing = [
    ['--grep', 'expired'],
    ['-g=expired'],
    ['--grep-invert', '@INFO'],
    ['--project', 'a'],
    ['--last-failed'],
    ['--only-changed'],
    ['--test-list', 'x.txt'],
    ['--test-list-invert=x.txt'],
    ['clauses.spec.ts'],
    // A value taken as an option's where the option takes none is a test filter: narrowing.
    ['-x', 'clauses.spec.ts:3'],
    // An option the list does not know narrows until it is listed.
    ['--some-future-filter'],
  ];
  for (const args of narrowing) expect(mayNarrow(argv(...args)), args.join(' ')).toBe(true);
});
