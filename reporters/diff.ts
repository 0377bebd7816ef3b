import { isDeepStrictEqual } from 'node:util';
import type { RowChange } from '../harness/document/document-changes.ts';
import { REGRESSIONS, statusChange, type ChangeKind, type ClauseChange } from './change.ts';
import type { ClauseResult, ConformanceReport, Verdict } from './conformance-result.ts';
import { documentAccount, rowsText } from './diff-document.ts';
import { changedViolation, failureOf, observationChanges } from './diff-evidence.ts';
import { violationLine } from '../harness/judging/violation-words.ts';

// Two runs compared clause by clause: what changed for each target, and why. A pure function of the reports;
// reading them (files, folders, bundles) is readers/report-file.ts's.

/** One run as the diff names it. */
export interface DiffSide {
  source: string;
  suite: string;
  contractsHash: string;
  document: string;
  verdicts: { target: string; verdict: Verdict }[];
}

export interface RunDiff {
  kind: 'diff';
  diffVersion: 1;
  old: DiffSide;
  new: DiffSide;
  /** Differences of the judge itself, which may explain a change better than the target: another suite, other contracts or another text of the document. */
  judgeChanged: string[];
  /** Set when the two runs, of one target each, are of two targets (another base URL): the line that says so. */
  otherTarget?: string;
  /** The rows the new text of the document changed, when the runs were judged by two texts and both were at hand. */
  documentRows?: RowChange[];
  /** The targets whose product version differs between the runs (read or stated): a change may be the product's new release. */
  productVersions?: { target: string; old?: string; new?: string }[];
  /** Targets of one run only, by name: not compared. */
  unpaired: { target: string; in: 'old' | 'new' }[];
  changes: ClauseChange[];
  unchanged: number;
  regressions: number;
}

/** A failure, excused by a known deviation or not, keeps its status with other violations; an observed clause, with another observation. */
function sameStatusChange(before: ClauseResult, after: ClauseResult): ChangeKind | undefined {
  if (before.status === 'failed' || before.status === 'known-deviation')
    return isDeepStrictEqual(failureOf(before), failureOf(after)) ? undefined : 'evidence-changed';
  if (before.status === 'observed') return isDeepStrictEqual(before.evidence?.observations, after.evidence?.observations) ? undefined : 'observation-changed';
  return undefined;
}

/** How a clause changed between two runs; undefined when it did not. */
export function classify(before: ClauseResult | undefined, after: ClauseResult | undefined): ChangeKind | undefined {
  if (before === undefined) return after === undefined ? undefined : 'clause-added';
  if (after === undefined) return 'clause-removed';
  return before.status === after.status ? sameStatusChange(before, after) : statusChange(before.status, after.status);
}

/** Observation changes named in one line: the first few, and how many more. */
const OBSERVATION_LINES = 3;

export function whyOf(kind: ChangeKind, after: ClauseResult | undefined, before: ClauseResult | undefined): string | undefined {
  if (kind === 'evidence-changed' && before && after) {
    // The violation that makes the difference, not the first one, which both runs may share.
    const changed = changedViolation(before, after);
    if (changed) return `${changed.gone ? 'no longer: ' : ''}${violationLine(changed.violation)}`;
    const counts = [before, after].map((c) => c.evidence?.violations.length ?? 0);
    return `the same violations, ${counts[0]} then ${counts[1]} in all`;
  }
  if (kind === 'observation-changed') {
    const lines = observationChanges(before?.evidence?.observations, after?.evidence?.observations);
    const more = lines.length - OBSERVATION_LINES;
    return `${lines.slice(0, OBSERVATION_LINES).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
  }
  const [violation] = after?.evidence?.violations ?? [];
  // A fix names what the old run found, as a regression names what the new one finds.
  const [was] = before?.evidence?.violations ?? [];
  if (kind === 'fixed') return was !== undefined ? `no longer: ${violationLine(was)}` : firstLine(before?.reason);
  if (violation !== undefined && (kind === 'regressed' || kind === 'deviation-ended' || kind === 'newly-exercised')) return violationLine(violation);
  if (kind === 'deviation-added') return after?.deviation?.reason;
  if (kind === 'deviation-ended') return before?.deviation ? `the deviation "${before.deviation.reason}" no longer applies` : undefined;
  return firstLine(after?.reason ?? before?.reason);
}

/** A reason's first line: a diff's why is one line, never a test message's whole block. */
const firstLine = (text: string | undefined) => text?.split('\n')[0];

/**
 * The line that warns of two runs of two targets, one each, paired whatever their names: another base URL (the
 * embedded reference target's port changes every run, and is the same target).
 */
function otherTargetLine(old: ConformanceReport[], neu: ConformanceReport[]): string | undefined {
  if (old.length !== 1 || neu.length !== 1) return undefined;
  const [a, b] = [old[0].target, neu[0].target];
  if ((a.embedded && b.embedded) || a.baseUrl === b.baseUrl) return undefined;
  return `the runs are of two targets, ${a.name} (${a.baseUrl}) then ${b.name} (${b.baseUrl}): a change may be the other target's, not a fix or a regression`;
}

/** Each target of a run by name; a run of one target pairs with the other run's one target whatever their names. */
export function pairs(
  before: ConformanceReport[],
  after: ConformanceReport[],
): { pairs: [ConformanceReport, ConformanceReport][]; unpaired: RunDiff['unpaired'] } {
  if (before.length === 1 && after.length === 1) return { pairs: [[before[0], after[0]]], unpaired: [] };
  const byName = new Map(after.map((r) => [r.target.name, r]));
  const paired = before.filter((r) => byName.has(r.target.name)).map((r): [ConformanceReport, ConformanceReport] => [r, byName.get(r.target.name)!]);
  const olds = new Set(before.map((r) => r.target.name));
  return {
    pairs: paired,
    unpaired: [
      ...before.filter((r) => !byName.has(r.target.name)).map((r) => ({ target: r.target.name, in: 'old' as const })),
      ...after.filter((r) => !olds.has(r.target.name)).map((r) => ({ target: r.target.name, in: 'new' as const })),
    ],
  };
}

/**
 * The two texts of the document compared row by row (document-changes.ts), by their SHA-256; or why they
 * could not be: a report names its text only by its hash.
 */
export type DocumentComparison = { old: string; new: string; rows: RowChange[] } | { unavailable: string };

/** The kinds a changed text of the document may account for, and the run whose failure it must account for. */
const BY_DOCUMENT: Partial<Record<ChangeKind, 'old' | 'new'>> = { regressed: 'new', 'evidence-changed': 'new', fixed: 'old' };

/** A change as the rows the new text changed account for it: `changed-by-document`, or as it was with the rows named beside it. */
function accounted(change: ClauseChange, before: ClauseResult | undefined, after: ClauseResult | undefined, rows: RowChange[]): ClauseChange {
  const side = BY_DOCUMENT[change.kind];
  const account = side && documentAccount(change.id, side === 'new' ? after : before, rows);
  if (!account) return change;
  const changed = `the document changed ${rowsText(account.rows)}`;
  if (account.unaccounted === undefined) return { ...change, kind: 'changed-by-document', why: [changed, change.why].filter(Boolean).join('; ') };
  return { ...change, why: `${[change.why, changed].filter(Boolean).join('; ')}, which this clause rests on, but ${account.unaccounted}` };
}

/** The judge's line for the document, which says whether its rows were compared, and why not when they were not. */
function documentLine(a: DiffSide, b: DiffSide, documents: DocumentComparison | undefined): string {
  const line = `the document's text: sha256 ${a.document.slice(0, 12)} then ${b.document.slice(0, 12)}`;
  if (documents === undefined) return `${line}; its rows cannot be compared, as neither text is at hand`;
  if ('unavailable' in documents) return `${line}; its rows cannot be compared: ${documents.unavailable}`;
  const n = documents.rows.length;
  return `${line}; ${n === 0 ? 'none of its rows changed' : `${n} change${n === 1 ? '' : 's'} to its rows`}`;
}

function sideOf(source: string, reports: ConformanceReport[]): DiffSide {
  const [first] = reports;
  return {
    source,
    suite: first.suite.version,
    contractsHash: first.suite.contractsHash,
    document: first.document.sha256,
    verdicts: reports.map((r) => ({ target: r.target.name, verdict: r.verdict })),
  };
}

/**
 * The clause-by-clause difference of two runs, each given as its targets' reports; `documents`, when they were
 * judged by two texts of the document, those texts compared row by row.
 */
export function diffRuns(
  old: { source: string; reports: ConformanceReport[] },
  neu: { source: string; reports: ConformanceReport[] },
  documents?: DocumentComparison,
): RunDiff {
  const [a, b] = [sideOf(old.source, old.reports), sideOf(neu.source, neu.reports)];
  const judgeChanged = [
    a.suite !== b.suite ? `the suite: ${a.suite} then ${b.suite}` : undefined,
    a.contractsHash !== b.contractsHash ? `the contracts: ${a.contractsHash.slice(0, 12)} then ${b.contractsHash.slice(0, 12)}` : undefined,
    a.document !== b.document ? documentLine(a, b, documents) : undefined,
  ].filter((line): line is string => line !== undefined);
  const matched = pairs(old.reports, neu.reports);
  const otherTarget = otherTargetLine(old.reports, neu.reports);
  const compared = documents !== undefined && 'rows' in documents && a.document !== b.document ? documents : undefined;
  const changes: ClauseChange[] = [];
  let unchanged = 0;
  const productVersions: NonNullable<RunDiff['productVersions']> = [];
  for (const [before, after] of matched.pairs) {
    const target = after.target.name;
    if (before.product?.version !== after.product?.version) productVersions.push({ target, old: before.product?.version, new: after.product?.version });
    const earlier = new Map(before.clauses.map((c) => [c.id, c]));
    const later = new Map(after.clauses.map((c) => [c.id, c]));
    for (const id of [...new Set([...earlier.keys(), ...later.keys()])]) {
      const [from, to] = [earlier.get(id), later.get(id)];
      const kind = classify(from, to);
      if (kind === undefined) {
        unchanged += 1;
        continue;
      }
      const change: ClauseChange = { target, id, level: (to ?? from)!.level, kind, from: from?.status, to: to?.status, why: whyOf(kind, to, from) };
      // Only a pair judged by the two texts compared: a matrix's target judged by a third text is not theirs to explain.
      const byTexts = compared && before.document.sha256 === compared.old && after.document.sha256 === compared.new;
      changes.push(byTexts ? accounted(change, from, to, compared.rows) : change);
    }
  }
  return {
    kind: 'diff',
    diffVersion: 1,
    old: a,
    new: b,
    judgeChanged,
    ...(otherTarget && { otherTarget }),
    ...(compared && { documentRows: compared.rows }),
    ...(productVersions.length > 0 && { productVersions }),
    unpaired: matched.unpaired,
    changes,
    unchanged,
    regressions: changes.filter((c) => REGRESSIONS.includes(c.kind)).length,
  };
}
