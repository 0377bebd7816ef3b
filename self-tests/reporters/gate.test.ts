import { expect, test } from '@playwright/test';
import type { Clause } from '../../harness/contracts/catalogue.ts';
import type { Gate } from '../../harness/config/gate.ts';
import type { ClauseEvidence } from '../../harness/judging/verdicts.ts';
import { compareWithBaseline } from '../../reporters/baseline.ts';
import { consoleSummary } from '../../reporters/console-summary.ts';
import type { ChangeKind } from '../../reporters/change.ts';
import { buildConformanceReport, EXIT_CODE, type ClauseRun, type ConformanceReport, type RunMeta } from '../../reporters/conformance-result.ts';
import { gateText, gateVerdict, runExitCode } from '../../reporters/gate.ts';
import { runMeta } from '../support/run-meta.ts';

// The gate decides the exit code, one pure function of the reports: each kind of change a clause can make
// since the baseline, under each gate, gives one exit code. `must` follows the verdict, as a run without a
// baseline does; `regressions` (the ratchet) sets aside the failures the baseline had, and nothing else.

/** The clause each case changes, and one beside it that always passes, so that a run has something met. */
const CHANGING = 'a.must';
const CATALOGUE: Clause[] = [
  { id: CHANGING, section: '2.1', level: 'MUST', title: 'a', profile: 'core' },
  { id: 'b.must', section: '2.2', level: 'MUST', title: 'b', profile: 'core' },
  { id: 'c.info', section: '4.1', level: 'INFO', title: 'c' },
];
const PROFILES = [{ name: 'core', title: 'the admin token alone', needs: 'the admin token' }];

/** What the changing clause does in a run: an outcome of the judge's, a known deviation, not judged, or absent from the catalogue. */
type State = ClauseRun['outcome'] | 'known-deviation' | 'not-judged' | 'absent';

const evidence = (received: string): ClauseEvidence => ({
  clause: CHANGING,
  outcome: 'failed',
  instances: 1,
  violations: [
    {
      pointer: '/enabled',
      received,
      required: 'false',
      request: { method: 'GET', path: '/api/admin/projects', credential: 'admin', durationMs: 1, curl: 'curl' },
    },
  ],
  violationsCut: 0,
  unevaluable: [],
  observations: undefined,
});

interface RunOf {
  state: State;
  /** What a failure received, so that two failures differ in their evidence. */
  received?: string;
  /** Another clause errored beside it: the run has no verdict but for a violation. */
  errored?: true;
  interrupted?: true;
  meta?: Partial<RunMeta>;
}

function reportOf({ state, received = 'true', errored, interrupted, meta }: RunOf): ConformanceReport {
  const catalogue = state === 'absent' ? CATALOGUE.filter((c) => c.id !== CHANGING) : CATALOGUE;
  const outcome = state === 'known-deviation' ? 'failed' : state;
  const changing: ClauseRun[] =
    outcome === 'not-judged' || outcome === 'absent' ? [] : [{ clause: CHANGING, outcome, ...(outcome === 'failed' && { evidence: evidence(received) }) }];
  const runs: ClauseRun[] = [...changing, { clause: 'b.must', outcome: errored ? 'errored' : 'passed' }, { clause: 'c.info', outcome: 'passed' }];
  return buildConformanceReport(
    catalogue,
    runs,
    runMeta({
      profiles: PROFILES,
      deviations: state === 'known-deviation' ? [{ clause: CHANGING, reason: 'accepted until fixed' }] : [],
      runStatus: interrupted ? 'interrupted' : 'passed',
      ...meta,
    }),
  );
}

/** The run's exit code under a gate, compared with a baseline, as the reporter decides it. */
function exitCodeOf(before: RunOf, after: RunOf, gate: Gate): { kind: ChangeKind | undefined; exitCode: number } {
  const [report] = compareWithBaseline([reportOf(after)], { source: 'baseline/', reports: [reportOf(before)] }, gate);
  return { kind: report.baseline!.changes.find((c) => c.id === CHANGING)?.kind, exitCode: runExitCode([report], false) };
}

interface Case {
  title: string;
  before: RunOf;
  after: RunOf;
  kind: ChangeKind | undefined;
  /** The exit code under `must`, then under `regressions`. */
  exitCodes: [must: number, ratchet: number];
}

const CASES: Case[] = [
  { title: 'a clause that passed and passes', before: { state: 'passed' }, after: { state: 'passed' }, kind: undefined, exitCodes: [0, 0] },
  { title: 'a clause that passed and fails', before: { state: 'passed' }, after: { state: 'failed' }, kind: 'regressed', exitCodes: [1, 1] },
  {
    title: 'a clause that passed and fails under a known deviation',
    before: { state: 'passed' },
    after: { state: 'known-deviation' },
    kind: 'regressed',
    exitCodes: [0, 1],
  },
  {
    title: 'a known deviation that no longer applies',
    before: { state: 'known-deviation' },
    after: { state: 'failed' },
    kind: 'deviation-ended',
    exitCodes: [1, 1],
  },
  { title: 'a failure made a known deviation', before: { state: 'failed' }, after: { state: 'known-deviation' }, kind: 'deviation-added', exitCodes: [0, 0] },
  { title: 'a failure fixed', before: { state: 'failed' }, after: { state: 'passed' }, kind: 'fixed', exitCodes: [0, 0] },
  { title: 'a known deviation fixed', before: { state: 'known-deviation' }, after: { state: 'passed' }, kind: 'fixed', exitCodes: [0, 0] },
  { title: 'the same failure as the baseline', before: { state: 'failed' }, after: { state: 'failed' }, kind: undefined, exitCodes: [1, 0] },
  {
    title: 'the same clause failing with other evidence',
    before: { state: 'failed' },
    after: { state: 'failed', received: '"yes"' },
    kind: 'evidence-changed',
    exitCodes: [1, 0],
  },
  {
    title: 'a failure the baseline did not exercise',
    before: { state: 'not-exercised' },
    after: { state: 'failed' },
    kind: 'newly-exercised',
    exitCodes: [1, 1],
  },
  { title: 'a failure where the baseline errored', before: { state: 'errored' }, after: { state: 'failed' }, kind: 'newly-exercised', exitCodes: [1, 1] },
  { title: 'a pass the baseline did not exercise', before: { state: 'not-exercised' }, after: { state: 'passed' }, kind: 'newly-exercised', exitCodes: [0, 0] },
  {
    title: 'a clause no longer exercised',
    before: { state: 'passed' },
    after: { state: 'not-exercised' },
    kind: 'no-longer-exercised',
    exitCodes: [3, 3],
  },
  { title: 'a failure that errors now', before: { state: 'failed' }, after: { state: 'errored' }, kind: 'no-longer-exercised', exitCodes: [3, 3] },
  { title: 'an errored clause not judged now', before: { state: 'errored' }, after: { state: 'not-judged' }, kind: 'status-changed', exitCodes: [3, 3] },
  { title: 'a failing clause new in the catalogue', before: { state: 'absent' }, after: { state: 'failed' }, kind: 'clause-added', exitCodes: [1, 1] },
  { title: 'a clause no longer in the catalogue', before: { state: 'passed' }, after: { state: 'absent' }, kind: 'clause-removed', exitCodes: [0, 0] },
  {
    title: 'the same failure, the baseline judged by another suite',
    before: { state: 'failed', meta: { suiteVersion: '0.9.0' } },
    after: { state: 'failed' },
    kind: undefined,
    exitCodes: [1, 1],
  },
  {
    title: 'the same failure, the baseline judged with another text of the document',
    before: { state: 'failed', meta: { document: { title: 'The document', sha256: '1'.repeat(64), readFrom: 'spec.md' } } },
    after: { state: 'failed' },
    kind: undefined,
    exitCodes: [1, 1],
  },
  {
    title: 'the same failure, another clause errored now',
    before: { state: 'failed' },
    after: { state: 'failed', errored: true },
    kind: undefined,
    exitCodes: [1, 3],
  },
  {
    title: 'the same failure in a run that was interrupted',
    before: { state: 'failed' },
    after: { state: 'failed', interrupted: true },
    kind: undefined,
    exitCodes: [3, 3],
  },
  {
    title: 'a regression under a known deviation, another clause errored now',
    before: { state: 'passed' },
    after: { state: 'known-deviation', errored: true },
    kind: 'regressed',
    exitCodes: [3, 1],
  },
];

for (const c of CASES)
  test(`${c.title} (${c.kind ?? 'unchanged'}) exits ${c.exitCodes[0]} under the must gate, ${c.exitCodes[1]} under the ratchet`, () => {
    const must = exitCodeOf(c.before, c.after, 'must');
    const ratchet = exitCodeOf(c.before, c.after, 'regressions');
    expect([must.kind, ratchet.kind]).toEqual([c.kind, c.kind]);
    expect([must.exitCode, ratchet.exitCode]).toEqual(c.exitCodes);
    // The must gate is the verdict's, as without a baseline; the report's verdict is the target's under either gate.
    expect(must.exitCode).toBe(EXIT_CODE[reportOf(c.after).verdict]);
  });

test('the ratchet never gives 0 to a run the must gate gives 3: no verdict stays no verdict', () => {
  for (const c of CASES.filter((x) => x.exitCodes[0] === 3)) expect(c.exitCodes[1]).not.toBe(0);
  for (const c of CASES.filter((x) => x.exitCodes[1] === 0)) expect(['pass', 'fail']).toContain(reportOf(c.after).verdict);
});

test('a target the baseline lacks is compared with nothing: its failures are none the baseline had, and fail the ratchet', () => {
  const named = (name: string, state: State) => reportOf({ state, meta: { target: { name, baseUrl: `http://${name}`, embedded: false } } });
  const baseline = { source: 'baseline/', reports: [named('eu', 'failed'), named('us', 'failed')] };
  const reports = compareWithBaseline([named('eu', 'failed'), named('asia', 'failed')], baseline, 'regressions');
  expect(reports.map((r) => [r.target.name, r.baseline?.compared?.target, gateVerdict(r)])).toEqual([
    ['eu', 'eu', 'pass'],
    ['asia', undefined, 'fail'],
  ]);
  expect(runExitCode(reports, true)).toBe(1);
  expect(runExitCode(reports.slice(0, 1), true)).toBe(0);
  // One shard of several has no verdict of the run's, under the ratchet as under the must gate.
  expect(runExitCode(reports.slice(0, 1), true, { current: 1, total: 2, runTargets: ['eu', 'asia'], run: 'r' })).toBe(3);
});

test('the headline says what the exit code followed, and that the target still fails what the baseline failed', () => {
  const gated = (before: RunOf, after: RunOf) =>
    gateText(compareWithBaseline([reportOf(after)], { source: 'baseline/', reports: [reportOf(before)] }, 'regressions')[0]);
  expect(gated({ state: 'failed' }, { state: 'failed' })).toBe(
    'gate (ratchet): exit code 0: nothing regressed against baseline/; the target still FAILS 1 MUST clause, as in the baseline (a.must)',
  );
  expect(gated({ state: 'passed' }, { state: 'failed' })).toBe('gate (ratchet): exit code 1: 1 regressed against baseline/ (a.must)');
  expect(gated({ state: 'not-exercised' }, { state: 'failed' })).toBe(
    'gate (ratchet): exit code 1: 1 MUST clause fails (a.must) that the baseline did not judge',
  );
  expect(gated({ state: 'failed', meta: { suiteVersion: '0.9.0' } }, { state: 'failed' })).toBe(
    'gate (ratchet): exit code 1: 1 MUST clause fails (a.must), and another judge made the baseline (the suite: 0.9.0 then 0): no failure can be taken for one it had',
  );
  expect(gated({ state: 'failed' }, { state: 'failed', errored: true })).toBe(
    'gate (ratchet): exit code 3: nothing regressed against baseline/; no verdict: the run could not judge every clause; the target still FAILS 1 MUST clause, as in the baseline (a.must)',
  );
  // The closing block says it under the verdict, which stays the target's.
  const [report] = compareWithBaseline([reportOf({ state: 'failed' })], { source: 'baseline/', reports: [reportOf({ state: 'failed' })] }, 'regressions');
  expect(consoleSummary(report, []).split('\n').slice(2, 4)).toEqual(['FAIL: the target violates the document', gateText(report)]);
  // The must gate leaves the headline to the verdict.
  expect(gateText(compareWithBaseline([reportOf({ state: 'failed' })], { source: 'b', reports: [reportOf({ state: 'failed' })] }, 'must')[0])).toBeUndefined();
});
