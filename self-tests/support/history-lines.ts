import type { HistoryLine } from '../../reporters/history-line.ts';

// History lines made as a run makes them, one clause each, for the self-tests of the history file and command.

export const CLAUSE = 'signup-token.state.expired-not-enabled';
export const JUDGE = { suite: { version: '1.0.0', contractsHash: 'abc' }, document: 'a'.repeat(64) };

/** A target's run on a day of January 2030, the clause with `status`, the profile met when it passed. */
export function historyLineOf(target: string, day: number, status: HistoryLine['clauses'][string], judge = JUDGE): HistoryLine {
  return {
    historyVersion: 1,
    run: `run ${day}`,
    startedAt: new Date(Date.UTC(2030, 0, day)).toISOString(),
    ...judge,
    target: { name: target, baseUrl: 'https://example.test' },
    claim: { profiles: ['core'], status: { core: status === 'passed' ? 'met' : 'violated' } },
    verdict: status === 'passed' ? 'pass' : 'fail',
    clauses: { [CLAUSE]: status },
  };
}
