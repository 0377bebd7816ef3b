import { loadChecks } from '../../checks/index.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadProfiles } from '../../harness/contracts/profiles.ts';
import { judge } from '../../harness/judging/judge.ts';
import { runsOf } from '../../harness/judging/verdicts.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import type { Variant } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { buildConformanceReport, type ConformanceReport, type RunMeta } from '../../reporters/conformance-result.ts';
import { renderHtml } from '../../reporters/html.ts';
import { buildMatrixReport } from '../../reporters/matrix-result.ts';
import { renderMatrixHtml } from '../../reporters/matrix-render.ts';
import { refusalReport } from '../../reporters/refusal-report.ts';
import { REFERENCE_INPUT, recordInProcess } from './in-process.ts';
import { runMeta } from './run-meta.ts';

// One page of each kind a run leaves, judged in this process from the reference target and its faults, with
// the longest words a real run writes (a URL, a digest, a reason without a space) where a page must wrap them.

const catalogue = loadCatalogue();

/** A base URL of 180 characters, none of them a place to break a line. */
export const LONG_URL = `https://tenant-${'x'.repeat(120)}.eu-central-1.feature-management.example.com/unleash/api`;

function reportOf(variant: Variant | undefined, name: string, input = REFERENCE_INPUT, meta: Partial<RunMeta> = {}): ConformanceReport {
  const runs = runsOf(catalogue, judge(recordInProcess(variant, input), input, loadChecks()), createSecrets(input));
  return buildConformanceReport(
    catalogue,
    runs,
    runMeta({
      target: { name, baseUrl: LONG_URL, embedded: false, reportedVersion: { 'x-unleash-version': '8.2.0-beta.long-build-identifier-0123456789abcdef' } },
      product: { name: 'Unleash', version: '8.2.0' },
      profiles: loadProfiles(),
      ...meta,
    }),
  );
}

const fault = (name: string) => FAULTS.find((f) => f.name === name)!;

/** A target that never answered: every clause errored for the one reason the run stopped on. */
function unreachable(name: string): ConformanceReport {
  const reason = `no answer from ${LONG_URL}/api/admin/projects: connect ECONNREFUSED 127.0.0.1:9 (connection refused)`;
  return buildConformanceReport(
    catalogue,
    [],
    runMeta({ target: { name, baseUrl: LONG_URL, embedded: false }, runErrors: [reason], profiles: loadProfiles() }),
  );
}

/** Each kind of single-target page, and the page of a run over several targets, by name. */
export function samplePages(): { name: string; html: string }[] {
  const pass = reportOf(undefined, 'reference-passing');
  const fail = reportOf(fault('expired-token-enabled'), 'tenant-failing-with-a-rather-long-name-of-its-own');
  const partial = reportOf(undefined, 'tenant-without-signup-tokens', { ...REFERENCE_INPUT, signupTokens: [] });
  const down = unreachable('tenant-unreachable');
  const deviation = reportOf(fault('expired-token-enabled'), 'tenant-with-a-deviation', REFERENCE_INPUT, {
    deviations: [{ clause: 'signup-token.state.expired-not-enabled', reason: 'enabled is stored, not computed', link: `${LONG_URL}/issues/1` }],
  });
  const refused = refusalReport(
    'CONFORMANCE_TARGETS: /home/someone/a/very/long/path/to/a/fleet-file-that-does-not-exist-anywhere-on-this-machine.yaml: no such file',
  );
  const matrix = buildMatrixReport(
    [pass, fail, partial, down, deviation].map((report) => ({ report, path: `${report.target.name}/index.html` })),
    1000,
  );
  return [
    { name: 'pass', html: renderHtml(pass) },
    { name: 'fail', html: renderHtml(fail) },
    { name: 'partial', html: renderHtml(partial) },
    { name: 'known deviation', html: renderHtml(deviation) },
    { name: 'unreachable', html: renderHtml(down) },
    { name: 'configuration error', html: renderHtml(refused) },
    { name: 'fleet', html: renderMatrixHtml(matrix) },
  ];
}
