import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadProfiles } from '../../harness/contracts/profiles.ts';
import { judge } from '../../harness/judging/judge.ts';
import { runsOf } from '../../harness/judging/verdicts.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import type { Variant } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { buildConformanceReport, type ConformanceReport } from '../../reporters/conformance-result.ts';
import { diffRuns } from '../../reporters/diff.ts';
import { diffMarkdown, diffText } from '../../reporters/diff-output.ts';
import { checksOnce, REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';
import { runMeta } from '../support/run-meta.ts';

// What diff says of a change, as a person reads it: a fix names what the old run found, on one line; a
// regression says what the document requires; two runs of two targets are said to be so.

const catalogue = loadCatalogue();
const EXPIRED = 'signup-token.state.expired-not-enabled';

function reportOf(variant: Variant | undefined, baseUrl: string): ConformanceReport {
  const runs = runsOf(catalogue, judge(recordInProcess(variant), REFERENCE_INPUT, checksOnce()), createSecrets(REFERENCE_INPUT));
  return buildConformanceReport(catalogue, runs, runMeta({ target: { name: 'staging', baseUrl, embedded: false }, profiles: loadProfiles() }));
}

const broken = reportOf(
  FAULTS.find((f) => f.name === 'expired-token-enabled'),
  'https://staging.example.com',
);
const faithful = reportOf(undefined, 'https://staging.example.com');

test("a fixed clause names the old run's violation on one line, with no matcher's words and no literal \\n", () => {
  const lines = diffText(diffRuns({ source: 'old', reports: [broken] }, { source: 'new', reports: [faithful] }));
  const fixed = lines.find((l) => l.includes(`${EXPIRED} (MUST, failed → passed)`))!;
  expect(fixed).toContain(': no longer: GET /api/admin/invite-link/tokens/$SIGNUP_TOKEN_3 → 200: at /enabled: received true; the document requires false');
  expect(fixed).not.toContain('\\n');
  expect(lines.join('\n')).not.toContain('expect(');
  expect(lines.join('\n')).not.toContain('warning');
});

test('a regression says what the document requires, in the terminal and in Markdown', () => {
  const diff = diffRuns({ source: 'old', reports: [faithful] }, { source: 'new', reports: [broken] });
  expect(diffText(diff).find((l) => l.includes(`${EXPIRED} (MUST, passed → failed)`))).toContain('received true; the document requires false');
  expect(diffMarkdown(diff)).toContain('received true; the document requires false');
});

test('two runs of two targets, one each, are compared with a warning, in every format', () => {
  const other = { ...faithful, target: { ...faithful.target, name: 'production', baseUrl: 'https://production.example.com' } };
  const diff = diffRuns({ source: 'old', reports: [broken] }, { source: 'new', reports: [other] });
  expect(diff.otherTarget).toBe(
    "the runs are of two targets, staging (https://staging.example.com) then production (https://production.example.com): a change may be the other target's, not a fix or a regression",
  );
  expect(diffText(diff)[3]).toBe(`  warning: ${diff.otherTarget}`);
  expect(diffMarkdown(diff)).toContain('> **Warning:** the runs are of two targets');
});
