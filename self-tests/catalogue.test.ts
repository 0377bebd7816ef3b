import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CHECKS, checkProblems, type Check } from '../checks/index.ts';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { PROJECT_ROOT } from './support/run-suite.ts';

interface ListedSuite {
  specs?: { tests: { annotations: { type: string; description?: string }[] }[] }[];
  suites?: ListedSuite[];
}

function listedClauseIds(): string[] {
  // A scratch folder and a clean environment: no .env, CONFORMANCE_ or PLAYWRIGHT_ setting of the developer's
  // is read (PLAYWRIGHT_JSON_OUTPUT_NAME would send the listing to a file instead of stdout).
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('PLAYWRIGHT_') && k !== 'CI'));
  const out = spawnSync(
    process.execPath,
    [
      path.join(PROJECT_ROOT, 'node_modules/@playwright/test/cli.js'),
      'test',
      '--list',
      '--reporter=json',
      '--config',
      path.join(PROJECT_ROOT, 'playwright.config.ts'),
    ],
    {
      cwd: mkdtempSync(path.join(os.tmpdir(), 'conformance-list-')),
      encoding: 'utf8',
      env: { ...env, CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'an-unused-token' },
    },
  );
  const walk = (s: ListedSuite): string[] => [
    ...(s.specs ?? []).flatMap((spec) => spec.tests.flatMap((t) => t.annotations.filter((a) => a.type === 'clause').map((a) => a.description!))),
    ...(s.suites ?? []).flatMap(walk),
  ];
  return walk(JSON.parse(out.stdout) as ListedSuite);
}

test('every clause of the catalogue has exactly one test, and every test belongs to a clause', () => {
  const listed = listedClauseIds();
  const catalogue = loadCatalogue().map((c) => c.id);
  expect([...listed].sort()).toEqual([...catalogue].sort());
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
