import { isNode } from '../harness/contracts/validator.ts';
import { loadChecks } from '../checks/index.ts';
import type { KeyObject } from 'node:crypto';
import { attestationDifferences } from './attestation-check.ts';
import { targetOf } from '../reporters/attestation.ts';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { loadProfiles } from '../harness/contracts/profiles.ts';
import { checkedFile, digestProblems, EXCHANGES, manifestOf, REPORTS, strangeFiles, type BundleFiles, type Manifest } from '../harness/evidence/bundle.ts';
import { BundleError } from '../harness/evidence/bundle-error.ts';
import { bundledDocument, documentProblems } from '../harness/evidence/bundle-document.ts';
import { confirmationsOf, placeholderSecrets, readBundleRecording, recordingOf, type BundleRecording } from '../harness/evidence/bundle-recording.ts';
import { confirmedRuns } from '../harness/judging/confirmation-evidence.ts';
import { createSecrets } from '../harness/secrets/redact.ts';
import { contractsHash } from '../harness/contracts/contracts.ts';
import { specDocument } from '../harness/contracts/document.ts';
import { judge } from '../harness/judging/judge.ts';
import { preflightProblem } from '../harness/recording/preflight.ts';
import { SUITE_VERSION } from '../harness/contracts/run-identity.ts';
import { clauseRunOf, type ClauseRun, type RunFacts } from '../harness/judging/verdicts.ts';
import { renderBadge } from '../reporters/badge.ts';
import { renderCtrf } from '../reporters/ctrf.ts';
import { buildConformanceReport, type ConformanceReport } from '../reporters/conformance-result.ts';
import { renderHtml } from '../reporters/html.ts';
import { renderJunit } from '../reporters/junit.ts';
import { renderMarkdown } from '../reporters/markdown.ts';
import { REQUEST_LOG } from '../harness/evidence/request-log.ts';

// Verifying a bundle offline: its digests, then every clause judged again from its exchanges by this suite,
// compared with the bundle's own report. Nothing is sent anywhere.

export interface Verification {
  manifest?: Manifest;
  /** Why this suite does not judge the bundle: it was made by another suite, contracts or document. */
  refused?: string;
  /** Every way the bundle is not what it says: files, clause statuses, the verdict. Empty when it holds. */
  differences: string[];
  /** The report this suite gives the bundle's exchanges, when it judged them. */
  rejudged?: ConformanceReport;
  /** The clauses the run left out (a --grep, one shard), which verifying leaves out too. */
  leftOut: string[];
  /** The bundle's copy of the document its run was judged against, by its path in the bundle; none in a bundle made before bundles carried it. */
  document?: string;
  /** The attestation beside the bundle: its file, and what it says when the given key signed it and it holds. */
  attestation?: { file: string; result?: string };
  /** The run's facts as the bundle's exchanges keep them (a shard's place in its run among them), when they could be read. */
  facts?: RunFacts;
}

/** A signed run's attestation to check, as verify was given it: its file, its text (none when missing) and the public key. */
export interface AttestationToCheck {
  file: string;
  text?: string;
  key: KeyObject;
  /** The SHA-256 of the bundle as the attestation names it (bundleSubject). */
  subject: { sha256: string };
}

/** Why this suite is not the one that made the bundle, if it is not. */
function otherMaker(manifest: Manifest): string | undefined {
  const here = { version: SUITE_VERSION, contractsHash: contractsHash(), document: specDocument().sha256 };
  const there = { version: manifest.suite.version, contractsHash: manifest.suite.contractsHash, document: manifest.document.sha256 };
  if (manifest.suite.name === 'admin-api-conformance' && JSON.stringify(here) === JSON.stringify(there)) return undefined;
  return `the bundle was made by ${manifest.suite.name} ${there.version} with contracts ${there.contractsHash} and the document ${there.document.slice(0, 16)}…; this is admin-api-conformance ${here.version} with contracts ${here.contractsHash} and the document ${here.document.slice(0, 16)}…`;
}

const STATED = `${REPORTS}/conformance.json`;
const REPORT_SCHEMA = new URL('../reporters/conformance-report.schema.json', pathToFileURL(__filename));

/**
 * A file of the bundle read by `read`, or why it cannot be: a file missing or not what its schema says is
 * a difference, as a changed one is, since no suite could judge such a bundle to hold.
 */
function fileOf<T>(files: BundleFiles, name: string, read: (bytes: Buffer) => T): { value: T } | { difference: string } {
  const bytes = files.get(name);
  if (!bytes) return { difference: `${name}: missing, so the bundle cannot be judged again` };
  try {
    return { value: read(bytes) };
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    return { difference: error.message };
  }
}

/** The report this suite gives the bundle's exchanges, judged as the run judged them, on the day it judged them. */
export function rejudge(bundle: BundleRecording, manifest: Manifest, leftOut: Set<string>, shard?: string): ConformanceReport {
  const catalogue = loadCatalogue();
  const recording = recordingOf(bundle);
  const problem = preflightProblem({ baseUrl: bundle.facts.target.baseUrl }, recording);
  const judged = problem === undefined ? rejudgeClauses(bundle) : { runs: [] };
  const runs = judged.runs.filter((r) => !leftOut.has(r.clause));
  const report = buildConformanceReport(catalogue, runs, {
    suiteVersion: SUITE_VERSION,
    contractsHash: contractsHash(),
    document: specDocument(),
    product: bundle.facts.product,
    target: bundle.facts.target,
    startedAt: bundle.startedAt,
    durationMs: 0,
    runStatus: 'passed',
    runErrors: problem === undefined ? (judged.problem === undefined ? [] : [judged.problem]) : [`conformance run stopped: ${problem}`],
    deviations: bundle.facts.deviations,
    deviationsSetAside: bundle.facts.deviationsSetAside,
    today: manifest.judgedOn,
    requests: bundle.facts.requests,
    shard,
    consistency: bundle.facts.consistency,
    profiles: loadProfiles(),
    claim: bundle.facts.claim,
  });
  return report;
}

/** How a rejudged report names confirmations that confirm none of its failures: a difference of the bundle. */
const CONFIRMATIONS_PROBLEM = "the bundle's confirmations: ";

/**
 * Every clause of a bundle judged again from its exchanges, each failure confirmed on the bundle's confirmations as
 * the run confirmed it; `problem` when those are no confirmations of these failures.
 */
function rejudgeClauses(bundle: BundleRecording): { runs: ClauseRun[]; problem?: string } {
  const catalogue = loadCatalogue();
  const recording = recordingOf(bundle);
  const checks = loadChecks();
  const secrets = createSecrets(placeholderSecrets(bundle.input));
  const first = judge(recording, bundle.input, checks);
  const confirmed = confirmedRuns(catalogue, recording, bundle.input, checks, first, confirmationsOf(bundle), secrets);
  // Statuses are what a bundle is held to: each run keeps its outcome and confirmation, its words are the run's own.
  const runs = confirmed.runs.map((r) => ({ ...clauseRunOf(catalogue.find((c) => c.id === r.clause)!, { outcome: r.outcome }), confirmation: r.confirmation }));
  return { runs, problem: confirmed.problem && `${CONFIRMATIONS_PROBLEM}${confirmed.problem}` };
}

/**
 * What the manifest says of the run against what the bundle's report says: the manifest has no digest of its
 * own, the report's is in it, so the manifest's suite, document, target, product and verdict hold only where
 * the report says the same.
 */
function manifestDifferences(manifest: Manifest, stated: ConformanceReport): string[] {
  const fields: [string, unknown, unknown][] = [
    ['suite', manifest.suite, stated.suite],
    ['document', manifest.document, stated.document],
    ['target', targetOf(manifest.target), targetOf(stated.target)],
    ['product', manifest.product, stated.product],
  ];
  const differences = fields
    .filter(([, said, stands]) => !isDeepStrictEqual(said, stands))
    .map(
      ([field, said, stands]) =>
        `${field}: the manifest says ${JSON.stringify(said) ?? 'nothing'}, the bundle's report says ${JSON.stringify(stands) ?? 'nothing'}`,
    );
  if (stated.verdict !== manifest.verdict) differences.push(`verdict: the manifest says ${manifest.verdict}, the bundle's report says ${stated.verdict}`);
  return differences;
}

function statusDifferences(stated: ConformanceReport, found: ConformanceReport): string[] {
  const differences: string[] = [];
  if (!isDeepStrictEqual(targetOf(stated.target), targetOf(found.target)))
    differences.push(
      `target: the bundle's report says ${JSON.stringify(targetOf(stated.target))}, its exchanges give ${JSON.stringify(targetOf(found.target))}`,
    );
  const foundStatus = new Map(found.clauses.map((c) => [c.id, c.status]));
  for (const c of stated.clauses) {
    const status = foundStatus.get(c.id);
    if (status === undefined) differences.push(`clause ${c.id}: the bundle's report has it, this suite's catalogue does not`);
    else if (status !== c.status) differences.push(`clause ${c.id}: the bundle's report says ${c.status}, its exchanges give ${status}`);
  }
  for (const id of foundStatus.keys()) if (!stated.clauses.some((c) => c.id === id)) differences.push(`clause ${id}: missing from the bundle's report`);
  if (stated.verdict !== found.verdict) differences.push(`verdict: the bundle's report says ${stated.verdict}, its exchanges give ${found.verdict}`);
  // The counts a page, a badge and the matrix show are the summary's: held to the clauses as the verdict is.
  if (!isDeepStrictEqual(stated.summary, found.summary))
    differences.push(`summary: the bundle's report counts ${JSON.stringify(stated.summary)}, its exchanges give ${JSON.stringify(found.summary)}`);
  return differences;
}

/** The requests a bundle's request log lists, each a map; undefined where the log is missing, not JSON or not a list of them. */
function requestsLogged(log: Buffer | undefined): Record<string, unknown>[] | undefined {
  let value: unknown;
  try {
    value = log === undefined ? undefined : JSON.parse(log.toString('utf8'));
  } catch {
    return undefined;
  }
  const requests = isNode(value) ? value.requests : undefined;
  return Array.isArray(requests) && requests.every(isNode) ? requests : undefined;
}

/** The files of a bundle a person reads, each rendered from its conformance.json by a pure function. */
const RENDERINGS: [name: string, render: (report: ConformanceReport) => string][] = [
  ['index.html', renderHtml],
  ['summary.md', renderMarkdown],
  ['badge.svg', renderBadge],
  ['junit.xml', (report) => renderJunit([report])],
  ['ctrf.json', renderCtrf],
];

/**
 * Where what a person or a tool reads is not what the bundle's conformance.json says: the page, the summary, the
 * badge, JUnit and CTRF are rendered from it again, and the request log is held to the exchanges. A digest only says a file is
 * the one the manifest lists; a page changed to say PASS, its digest changed with it, is caught here.
 */
function renderingDifferences(files: BundleFiles, stated: ConformanceReport, recording: BundleRecording): string[] {
  const differences = RENDERINGS.flatMap(([name, render]) => {
    const bytes = files.get(`${REPORTS}/${name}`);
    if (!bytes) return [`${REPORTS}/${name}: missing, so what a reader sees cannot be held to the report`];
    return bytes.toString('utf8') === render(stated) ? [] : [`${REPORTS}/${name}: it does not say what the bundle's conformance.json says`];
  });
  const logged = requestsLogged(files.get(`${REPORTS}/${REQUEST_LOG}`));
  // The log writes a placeholder as it is ($SIGNUP_TOKEN_1), the exchanges percent-encoded as any path: compared decoded.
  const decoded = (p: unknown) => {
    try {
      return decodeURIComponent(String(p));
    } catch {
      return String(p);
    }
  };
  const line = (r: Record<string, unknown>) => JSON.stringify([r.method, decoded(r.path), r.status ?? null]);
  if (logged === undefined || logged.map(line).join('\n') !== recording.exchanges.map((e) => line({ ...e.request, status: e.status })).join('\n'))
    differences.push(`${REPORTS}/${REQUEST_LOG}: it does not list the requests of the bundle's exchanges`);
  return differences;
}

/**
 * Verifies a bundle: its manifest's digests, then its report against the verdicts this suite gives its
 * exchanges, and every rendering a person reads against the report. A bundle made by another suite,
 * contracts or document is refused unless `anyway`.
 */
export function verifyBundle(files: BundleFiles, options: { anyway?: boolean; attestation?: AttestationToCheck } = {}): Verification {
  const manifest = manifestOf(files);
  // The copy of the document is held to the manifest's document, which must be the report's (manifestDifferences).
  const differences = [...digestProblems(files, manifest), ...documentProblems(files, manifest.document.sha256)];
  const document = bundledDocument(files)?.name;
  const refusal = otherMaker(manifest);
  if (refusal && !options.anyway) return { manifest, refused: refusal, differences, leftOut: [], document };
  // Another suite may write other files; this one writes only its own.
  if (!refusal) differences.push(...strangeFiles(files, manifest));
  const report = fileOf(files, STATED, (bytes) => checkedFile<ConformanceReport>(STATED, bytes, REPORT_SCHEMA));
  const recording = fileOf(files, EXCHANGES, readBundleRecording);
  const unread = [report, recording].flatMap((read) => ('difference' in read ? [read.difference] : []));
  if (!('value' in report) || !('value' in recording)) return { manifest, refused: refusal, differences: [...differences, ...unread], leftOut: [], document };
  const stated = report.value;
  differences.push(...manifestDifferences(manifest, stated));
  const leftOut = stated.clauses.filter((c) => c.status === 'not-judged').map((c) => c.id);
  const rejudged = rejudge(recording.value, manifest, new Set(leftOut), stated.shard);
  const rendered = refusal ? [] : renderingDifferences(files, stated, recording.value);
  const attested = options.attestation && attestationOf(options.attestation, stated, recording.value, refusal === undefined);
  return {
    manifest,
    refused: refusal,
    differences: [
      ...differences,
      ...rejudged.errors.filter((e) => e.startsWith(CONFIRMATIONS_PROBLEM)),
      ...statusDifferences(stated, rejudged),
      ...rendered,
      ...(attested?.differences ?? []),
    ],
    rejudged,
    leftOut,
    document,
    attestation: attested && { file: options.attestation!.file, result: attested.result },
    facts: recording.value.facts,
  };
}

/**
 * The attestation held to the bundle. A missing one is a difference, not a bundle that cannot be verified: a
 * claim stripped of its signature must never fare better than one whose signature was changed.
 */
function attestationOf(given: AttestationToCheck, stated: ConformanceReport, recording: BundleRecording, madeHere: boolean) {
  if (given.text === undefined) return { differences: [`attestation: ${given.file} is missing, so no signed claim holds for this bundle`], result: undefined };
  const bundle = { stated, configuration: recording.facts.configuration, subject: given.subject, madeHere };
  const checked = attestationDifferences(given.text, given.key, bundle);
  return { ...checked, differences: checked.differences.map((d) => `attestation: ${d}`) };
}
