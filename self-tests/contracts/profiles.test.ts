import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadProfiles } from '../../harness/contracts/profiles.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The profiles a claim is made of are data (contracts/profiles.yaml, and each MUST clause's profile: in
// contracts/clauses.yaml); docs/profiles.md is generated from them and checked here.

const PAGE = path.join(PROJECT_ROOT, 'docs', 'profiles.md');
const UPDATE_COMMAND = 'UPDATE_PROFILES=1 npx playwright test --config self-tests/playwright.config.ts self-tests/contracts/profiles.test.ts';

test('every MUST clause is in exactly one profile, every profile has clauses, and no INFO clause is in any', () => {
  const catalogue = loadCatalogue();
  const profiles = loadProfiles();
  const must = catalogue.filter((c) => c.level === 'MUST').map((c) => c.id);
  expect(profiles.flatMap((p) => p.clauses).sort()).toEqual([...must].sort());
  for (const p of profiles) expect(p.clauses.length, p.name).toBeGreaterThan(0);
  for (const c of catalogue.filter((c) => c.level === 'INFO')) expect(c.profile, c.id).toBeUndefined();
});

function renderPage(): string {
  const catalogue = new Map(loadCatalogue().map((c) => [c.id, c]));
  const profiles = loadProfiles();
  const lines = [
    '# Profiles and claims',
    '',
    `Generated from \`contracts/profiles.yaml\` and \`contracts/clauses.yaml\`; do not edit by hand. After changing either, run \`${UPDATE_COMMAND}\`.`,
    '',
    "A run claims conformance to profiles: groups of the catalogue's MUST clauses, each exercised by the same input.",
    'By default a run claims every profile, and passes (exit code 0) only when every MUST clause of every profile was',
    'exercised and met (known deviations aside). A MUST clause of a claimed profile that the run could not exercise',
    '(its input was not given, or the deployment holds no such data) leaves the run without a verdict (exit code 3),',
    'and the closing block names what to supply. A user who cannot supply an input narrows the claim explicitly:',
    '`CONFORMANCE_CLAIM=core,projects-data` (a target file says `claim: [core, projects-data]`). The headline, the',
    'badge, every report and `verify` then name the profiles claimed and those not claimed. A violation fails the',
    'run wherever it is, in a profile not claimed too.',
    '',
    "Each profile's status in a report: **met** (every MUST clause exercised and met), **violated** (one failed),",
    '**errored** (one could not be judged), **not judged** (one did not run: a `--grep`, an interruption), **partly',
    'exercised** (some not exercised), **not exercised** (none).',
    '',
    '| profile | what it covers | what a run needs to exercise it | MUST clauses |',
    '|---|---|---|---|',
    ...profiles.map((p) => `| \`${p.name}\` | ${p.title} | ${p.needs} | ${p.clauses.length} |`),
    '',
    ...profiles.flatMap((p) => [
      `## \`${p.name}\`: ${p.title}`,
      '',
      `Needs ${p.needs}.`,
      '',
      '| clause | section | requirement |',
      '|---|---|---|',
      ...p.clauses.map((id) => `| \`${id}\` | ${catalogue.get(id)!.section} | ${catalogue.get(id)!.title} |`),
      '',
    ]),
  ];
  return lines.join('\n');
}

test('docs/profiles.md is the table of the current profiles, their clauses and the input each needs', () => {
  const rendered = renderPage();
  if (process.env.UPDATE_PROFILES) writeFileSync(PAGE, rendered);
  expect(readFileSync(PAGE, 'utf8'), `docs/profiles.md is out of date; run: ${UPDATE_COMMAND}`).toBe(rendered);
});
