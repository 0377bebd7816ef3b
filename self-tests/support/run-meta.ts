import type { RunMeta } from '../../reporters/conformance-result.ts';

/** What the reporter knows of a run besides its clauses, for report-building tests: one run that passed, with nothing to say. */
export function runMeta(overrides: Partial<RunMeta> = {}): RunMeta {
  return {
    document: { title: 'The document', sha256: '0'.repeat(64), readFrom: 'spec.md' },
    suiteVersion: '0',
    contractsHash: '0123456789abcdef',
    target: { name: 't', baseUrl: 'http://t.invalid', embedded: false },
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 1,
    runStatus: 'passed',
    runErrors: [],
    deviations: [],
    today: '2026-06-01',
    profiles: [],
    ...overrides,
  };
}
