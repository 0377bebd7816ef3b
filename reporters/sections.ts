import type { BaselineComparison } from './conformance-result.ts';
import { requestText, violationLine, type RequestWords, type ViolationWords } from '../harness/judging/violation-words.ts';
import { missingInputs, type Claim, type ProfileStatus } from './claim.ts';
import type { ClauseStatus } from './counts.ts';
import { STATUSES } from './statuses.ts';

/** The document's section headings, for grouping clauses in reports. */
export const SECTION_TITLES: Record<string, string> = {
  '2.1': 'Public signup token',
  '2.2': 'User object',
  '2.3': 'Role object',
  '2.4': 'Projects list',
  '2.5': 'Project object',
  '2.6': 'Owner object',
  '2.7': 'Error object',
  '3': 'States and transitions',
  '4.1': 'Retrieve a signup token',
  '4.2': 'List all projects',
  '5': 'Authentication',
  '7': 'Errors',
  '9': 'Versioning',
};

/** Sections in document order: "2.10" after "2.9", "10" after "9". */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? -1) !== (pb[i] ?? -1)) return (pa[i] ?? -1) - (pb[i] ?? -1);
  return 0;
}

/** Each status's word on the page, in summary.md and on the console, from the one table (statuses.ts). */
export const STATUS_LABEL = Object.fromEntries(Object.entries(STATUSES).map(([status, m]) => [status, m.label])) as Record<ClauseStatus, string>;

/** A deviation's link is kept as given, and shown as a link only when it is absolute: a relative one breaks in a page or a comment. */
export const isAbsoluteLink = (link: string | undefined): link is string => link !== undefined && /^https?:\/\/[^\s]+$/i.test(link);

export const VERDICT_LABEL = { pass: 'PASS', fail: 'FAIL', error: 'ERROR', partial: 'PARTIAL', incomplete: 'INCOMPLETE' } as const;

/** The verdict's word at the head of every rendering: an interrupted run says so, whatever it had found. */
export const headline = (report: { verdict: keyof typeof VERDICT_LABEL; interrupted?: true }) =>
  report.interrupted ? 'INTERRUPTED' : VERDICT_LABEL[report.verdict];

type VerdictFacts = {
  verdict: keyof typeof VERDICT_LABEL;
  interrupted?: true;
  target?: { embedded: boolean };
  product?: ProductFacts;
  summary: { must: { knownDeviations: number; notJudged?: number } };
  claim?: Claim;
};

export const PROFILE_STATUS_LABEL: Record<ProfileStatus, string> = {
  met: 'met',
  violated: 'violated',
  errored: 'errored',
  'not-judged': 'not judged',
  partial: 'partly exercised',
  'not-exercised': 'not exercised',
};

/** A profile's status in words: a profile met with known deviations says how many, never "met" beside "0 of 1". */
export function profileStatusText(p: { status: ProfileStatus; must: { knownDeviations: number } }): string {
  const known = p.must.knownDeviations;
  const deviations = known > 0 && p.status === 'met' ? `, with ${known} known deviation${known === 1 ? '' : 's'}` : '';
  return `${PROFILE_STATUS_LABEL[p.status]}${deviations}`;
}

/** The claim in words: the profiles claimed, and those not claimed; the same in every rendering. */
export function claimText(claim: Claim): string {
  const claimed = claim.byProfile.filter((p) => p.claimed).map((p) => `${p.name} ${profileStatusText(p)}`);
  const others = claim.byProfile.filter((p) => !p.claimed).map((p) => `${p.name} (${profileStatusText(p)})`);
  const head = claim.narrowed ? `profiles ${claimed.join(', ')}` : `every profile: ${claimed.join(', ')}`;
  return others.length > 0 ? `${head}; not claimed: ${others.join(', ')}` : head;
}

/** Why a claim has no verdict for want of input: what each profile not exercised in full needs, and the claim the run could make. */
function unexercisedText(claim: Claim): string | undefined {
  const missing = missingInputs(claim);
  if (missing.length === 0) return undefined;
  const met = claim.byProfile.filter((p) => p.claimed && p.status === 'met').map((p) => p.name);
  const narrower = met.length > 0 ? `, or narrow the claim to what was exercised: CONFORMANCE_CLAIM=${met.join(',')}` : '';
  return `no verdict: the claim is not exercised in full: ${missing.map((p) => `${p.name} needs ${p.needs}`).join('; ')}; give what ${missing.length === 1 ? 'it needs' : 'they need'}${narrower}`;
}

/** What a report of a refused configuration says instead of a target: none was read, and none is invented. */
export const NO_TARGET = 'no target: the configuration was refused before one was read';

/** The target in words, name and base URL, the same in every rendering. */
export const targetText = (target: { name: string; baseUrl: string } | undefined) => (target ? `${target.name} (${target.baseUrl})` : NO_TARGET);

/** Why a run has no verdict, when it says so: its errors, first, in every rendering. */
export const reasonFirst = (report: { completed: boolean; errors: string[] }) => (report.completed ? [] : report.errors);

/**
 * The lines that set the shell variables a report's curl lines use, each from the setting that gives its
 * secret, so that a copied line sends the same request: a list's entry is cut from the list.
 */
export function exportPreamble(placeholders: { placeholder: string; setting: string }[] | undefined): string[] {
  return (placeholders ?? []).map(({ placeholder, setting }) => {
    const name = placeholder.slice(1);
    const entry = /^(\S+) entry (\d+)$/.exec(setting);
    const value = entry ? `$(printf %s "$${entry[1]}" | cut -d, -f${entry[2]})` : `$${setting}`;
    return `export ${name}="${value}"   # ${setting}`;
  });
}

/** What the run judged, in words, whenever it was not a deployment. */
export const EMBEDDED_WORDS = 'embedded reference target, not a deployment';

/** The verdict in words, the same in every rendering; known deviations are never hidden behind a plain pass. */
export function verdictText(report: VerdictFacts): string {
  const known = report.summary.must.knownDeviations;
  // A pass holds for one version of the product: it is named wherever the version is known.
  const claimed = `${report.claim?.narrowed ? ` of the profiles claimed, ${report.claim.profiles.join(', ')}` : ''}${report.verdict === 'pass' ? forVersion(report.product) : ''}`;
  const unexercised = report.verdict === 'partial' && report.claim ? unexercisedText(report.claim) : undefined;
  const interrupted = report.interrupted ? 'no verdict: the run was stopped before it ended; what it found before is listed below' : undefined;
  const text =
    interrupted ??
    unexercised ??
    (report.verdict === 'pass' && known > 0
      ? `no new failure: the target meets every MUST clause${claimed} but ${known} known deviation${known === 1 ? '' : 's'}`
      : {
          pass: `the target meets every MUST clause${claimed}`,
          fail: 'the target violates the document',
          error: 'no verdict: the run could not judge every clause',
          partial: `no verdict: ${report.summary.must.notJudged ?? 0} MUST clause(s) were not judged in this run`,
          incomplete: 'no verdict: the run has not ended, or ended before its report',
        }[report.verdict]);
  return report.target?.embedded ? `${text} (${EMBEDDED_WORDS})` : text;
}

/** The product as a report holds it: as stated, and its version as stated or read from the target. */
type ProductFacts = {
  name: string;
  version?: string;
  vendor?: string;
  contact?: string;
  versionFrom?: 'stated' | 'read';
  read?: { request: string; version?: string; stated?: string; problem?: string };
};

/** ", for Unleash 8.2.0 (version read from the target)": what a pass holds for, when the version is known. */
const forVersion = (product: ProductFacts | undefined) =>
  product?.version ? `, for ${product.name} ${product.version} (version ${product.versionFrom === 'read' ? 'read from the target' : 'as stated'})` : '';

/** Where the version comes from, in words: read (by a request outside the document, never judged) or stated. */
function versionSource(product: ProductFacts): string {
  const read = product.read;
  if (read === undefined) return product.version ? ' (version as stated)' : '';
  const request = `${read.request}, a request outside the document, recorded as a fact and never judged`;
  if (read.version === undefined)
    return ` (${product.version ? 'version as stated; ' : ''}its version could not be read from the target: ${request}: ${read.problem})`;
  return ` (version read from the target: ${request}${read.stated ? `; the settings state ${read.stated}` : ''})`;
}

/** The product under test in words, as its vendor states it and its version as stated or read; the same in every rendering. */
export function productText(product: ProductFacts | undefined): string {
  if (!product) return 'not stated (a product: block in the target file, or CONFORMANCE_PRODUCT_NAME and _VERSION, _VENDOR, _CONTACT)';
  const vendor = product.vendor ? ` by ${product.vendor}` : '';
  const contact = product.contact ? `; contact: ${product.contact}` : '';
  return `${product.name}${product.version ? ` ${product.version}` : ''}${versionSource(product)}${vendor}${contact}`;
}

/**
 * The document in words: its title and the SHA-256 of its text, which a reader can check against their copy. Where
 * the suite's copy was read from (`readFrom`, a path of the suite's own sources) means nothing to a reader: the
 * report's JSON keeps it, no text shows it.
 */
export const documentText = (d: { title: string; sha256: string }) => `"${d.title}", SHA-256 ${d.sha256}`;

/** The line that checks a run's evidence bundle, offline: the reports name it, for whoever was handed them. */
export const VERIFY_LINE = 'npx admin-api-conformance verify evidence.tar.gz';

/** What a replay says of itself, in every rendering: which bundle, and that nothing was sent. */
export const replayText = (replay: { bundle: string } | undefined, startedAt: string) =>
  replay ? `a replay of the evidence bundle ${replay.bundle}: no request was sent; the exchanges are those recorded at ${startedAt}` : undefined;

type ClauseWords = { reason?: string; evidence?: { violations: ViolationWords[]; unevaluable: ErroredWords[] } };
type ErroredWords = { reason: string; request: RequestWords };

/** Why a clause could not be judged, on one line: the request and what stood in the way. */
export const erroredText = (u: ErroredWords) => `${requestText(u.request)}: ${u.reason}`;

const firstLineOf = (text: string | undefined) => (text ?? '').split('\n')[0];

/** A failed clause's first violation in words, or the first line of its reason when it names none. */
export const firstViolationText = (c: ClauseWords) => {
  const v = c.evidence?.violations[0];
  return v ? violationLine(v) : firstLineOf(c.reason);
};

/** An errored clause's first obstacle in words, or the first line of its reason when it names none. */
export const firstErroredText = (c: ClauseWords) => {
  const u = c.evidence?.unevaluable[0];
  return u ? erroredText(u) : firstLineOf(c.reason);
};

/** The comparison with the baseline in one line, the same in every rendering: with what, and how much changed. */
export function baselineText(baseline: BaselineComparison, target: string | undefined): string {
  const fixed = baseline.changes.filter((c) => c.kind === 'fixed').length;
  const others = baseline.changes.length - baseline.regressions - fixed;
  const against = baseline.compared
    ? `${baseline.compared.target}, ${VERDICT_LABEL[baseline.compared.verdict]} there`
    : `which has no target "${target ?? ''}": not compared`;
  return `${baseline.source} (${against}): ${baseline.regressions} regressed, ${fixed} fixed, ${others} other change${others === 1 ? '' : 's'}, ${baseline.unchanged} unchanged`;
}
