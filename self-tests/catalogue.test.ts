import { expect, test } from '@playwright/test';
import { CHECKS, checkProblems, type Check } from '../checks/index.ts';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { clausesToReplay, detailsOf } from '../tests/replay.ts';

// The Playwright suite is one spec (tests/clauses.spec.ts) that makes a test of each clause to replay, with the
// details detailsOf gives it: read here in process. That Playwright runs exactly those tests, as many as the
// catalogue has clauses, is shown by a run of the command (self-tests/suite/fault-black-box.test.ts).

test('every clause of the catalogue has exactly one test, and every test belongs to a clause', () => {
  const tested = clausesToReplay().flatMap((clause) =>
    (detailsOf(clause).annotation as { type: string; description?: string }[]).filter((a) => a.type === 'clause').map((a) => a.description!),
  );
  const catalogue = loadCatalogue().map((c) => c.id);
  expect([...tested].sort()).toEqual([...catalogue].sort());
});

test('clause ids are unique and well formed, every clause has a section, a level and a sentence', () => {
  const catalogue = loadCatalogue();
  expect(new Set(catalogue.map((c) => c.id)).size).toBe(catalogue.length);
  for (const c of catalogue) {
    expect(c.id).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(['MUST', 'INFO']).toContain(c.level);
    expect(c.section).toMatch(/^\d+(\.\d+)?$/);
    expect(c.title.length).toBeGreaterThan(10);
  }
});

test('every catalogue clause has exactly one check in checks/, every check a catalogue clause, and the contracts name only clauses read from them', () => {
  expect(checkProblems()).toEqual([]);
});

test('a check without a catalogue clause, a clause without a check, two checks of one clause and a contract clause no check reads are each named', () => {
  const checks = CHECKS.filter((c) => c.clause !== 'signup-token.state.expired-not-enabled' && c.clause !== 'projects.project.health-range');
  const broken: Check[] = [
    ...checks,
    { clause: 'signup-token.no-such-clause', judge: () => {} },
    // A section's file judging a clause its contract already names.
    { clause: 'projects.owner.kind', judge: () => {} },
    // A clause read from a contract that the catalogue lacks, and one read from a contract that names another.
    { clause: 'projects.no-such-clause', schema: 'projects' },
    { clause: 'signup-token.token.required', schema: 'projects' },
  ];
  expect(checkProblems(broken)).toEqual([
    'projects.owner.kind has two checks',
    'signup-token.token.required has two checks',
    'signup-token.no-such-clause has a check but is not in contracts/clauses.yaml',
    'projects.no-such-clause is read from contracts/projects.schema.json but is not in contracts/clauses.yaml',
    'signup-token.state.expired-not-enabled is in contracts/clauses.yaml but no check in checks/ judges it and no contract names it',
    'projects.project.health-range is in contracts/clauses.yaml but no check in checks/ judges it and no contract names it',
    'contracts/projects.schema.json names projects.project.health-range, which no check reads from it',
    'projects.no-such-clause is read from contracts/projects.schema.json, which never names it',
    'signup-token.token.required is read from contracts/projects.schema.json, which never names it',
  ]);
});
