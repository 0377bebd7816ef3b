import { compareVersions, parseVersion } from '../harness/config/version-range.ts';
import type { ChangeKind } from '../reporters/change.ts';
import type { ClauseStatus, ConformanceReport } from '../reporters/conformance-result.ts';
import { classify, whyOf } from '../reporters/diff.ts';

// A product's conformance over its versions, from one report per run: each clause's status at each version,
// where it changed, the profiles each version meets, and the known deviations each rests on. A pure function
// of the reports, which `trend` reads; the Markdown is trend-markdown.ts's.

/** One run of the trend: a report, and the version it holds for. */
export interface TrendColumn {
  /** What the column is headed with: the version, and the target's name where two runs share a version. */
  label: string;
  version: string;
  versionFrom: 'read' | 'stated';
  target: string;
  verdict: ConformanceReport['verdict'];
  claim: string[];
  /** Each profile's status at this version. */
  profiles: Record<string, string>;
}

export interface TrendRow {
  id: string;
  level: string;
  title: string;
  /** The status at each column, in the columns' order; undefined where the run did not have the clause. */
  statuses: (ClauseStatus | undefined)[];
  /**
   * Each version at which the outcome differs from the column before it, oldest first, as `diff` tells a change:
   * another status, or the same failure with other violations, or another observation; and why, in its words.
   */
  changes: { at: string; from?: ClauseStatus; to?: ClauseStatus; kind: ChangeKind; why?: string }[];
}

export interface TrendDeviation {
  clause: string;
  reason: string;
  link?: string;
  versions?: string;
  /** The columns whose verdict this deviation excused a failure in. */
  appliedAt: string[];
}

/** Two runs of one version (two configurations of one release): clause by clause, where they agree and differ. */
export interface TrendPair {
  version: string;
  runs: [string, string];
  agree: number;
  differ: { id: string; statuses: [ClauseStatus | undefined, ClauseStatus | undefined] }[];
}

export interface Trend {
  kind: 'trend';
  trendVersion: 1;
  product: string;
  columns: TrendColumn[];
  rows: TrendRow[];
  profiles: string[];
  deviations: TrendDeviation[];
  pairs: TrendPair[];
}

export class TrendError extends Error {}

/** Versions in semantic-versioning order; one that is none after every one that is, in the order of its text. */
function byVersion(a: string, b: string): number {
  const [va, vb] = [parseVersion(a), parseVersion(b)];
  if (va && vb) return compareVersions(va, vb);
  if (va || vb) return va ? -1 : 1;
  return a.localeCompare(b, 'en', { numeric: true });
}

interface Judged {
  source: string;
  report: ConformanceReport;
}

/** The version a report holds for, or the line that says why it has none. */
function versionOf({ source, report }: Judged): string {
  const version = report.product?.version;
  if (version === undefined)
    throw new TrendError(
      `${source}: the report of ${report.target.name} names no product version: state it (CONFORMANCE_PRODUCT_VERSION) or read it (CONFORMANCE_READ_PRODUCT_VERSION) in the run`,
    );
  return version;
}

function columnsOf(runs: Judged[]): TrendColumn[] {
  const versions = runs.map(versionOf);
  return runs.map(({ report }, i) => {
    const shared = versions.filter((v) => v === versions[i]).length > 1;
    return {
      label: shared ? `${versions[i]} (${report.target.name})` : versions[i],
      version: versions[i],
      versionFrom: report.product?.versionFrom ?? 'stated',
      target: report.target.name,
      verdict: report.verdict,
      claim: report.claim.profiles,
      profiles: Object.fromEntries(report.claim.byProfile.map((p) => [p.name, p.status])),
    };
  });
}

/** The first run of the release before column i's: of two runs of one release, the first is the plain one. */
function previousRelease(columns: TrendColumn[], i: number): number {
  let j = i - 1;
  while (j > 0 && columns[j - 1].version === columns[j].version) j--;
  return j;
}

function rowsOf(reports: ConformanceReport[], columns: TrendColumn[]): TrendRow[] {
  const ids = [...new Set(reports.flatMap((r) => r.clauses.map((c) => c.id)))];
  const byId = reports.map((r) => new Map(r.clauses.map((c) => [c.id, c])));
  return ids.map((id) => {
    const any = byId.find((m) => m.has(id))!.get(id)!;
    const clauses = byId.map((m) => m.get(id));
    const statuses = clauses.map((c) => c?.status);
    const changes = clauses.flatMap((after, i) => {
      // A second run of one version is another configuration, not a later release: compared apart (pairsOf).
      const before = clauses[previousRelease(columns, i)];
      const kind = i === 0 || columns[i].version === columns[i - 1].version ? undefined : classify(before, after);
      if (kind === undefined) return [];
      const why = whyOf(kind, after, before);
      return [{ at: columns[i].label, from: before?.status, to: after?.status, kind, ...(why === undefined ? {} : { why }) }];
    });
    return { id, level: any.level, title: any.title, statuses, changes };
  });
}

function deviationsOf(reports: ConformanceReport[], columns: TrendColumn[]): TrendDeviation[] {
  const found = new Map<string, TrendDeviation>();
  reports.forEach((report, i) => {
    for (const c of report.clauses) {
      if (c.deviation === undefined) continue;
      const key = JSON.stringify([c.deviation.clause, c.deviation.versions ?? '', c.deviation.reason]);
      const entry = found.get(key) ?? {
        clause: c.deviation.clause,
        reason: c.deviation.reason,
        link: c.deviation.link,
        versions: c.deviation.versions,
        appliedAt: [],
      };
      if (c.status === 'known-deviation') entry.appliedAt.push(columns[i].label);
      found.set(key, entry);
    }
  });
  return [...found.values()];
}

function pairsOf(reports: ConformanceReport[], columns: TrendColumn[]): TrendPair[] {
  const pairs: TrendPair[] = [];
  for (let i = 1; i < columns.length; i++) {
    if (columns[i].version !== columns[i - 1].version) continue;
    const [a, b] = [reports[i - 1], reports[i]];
    const later = new Map(b.clauses.map((c) => [c.id, c.status]));
    const ids = [...new Set([...a.clauses.map((c) => c.id), ...later.keys()])];
    const earlier = new Map(a.clauses.map((c) => [c.id, c.status]));
    const differ = ids
      .filter((id) => earlier.get(id) !== later.get(id))
      .map((id) => ({ id, statuses: [earlier.get(id), later.get(id)] as TrendPair['differ'][number]['statuses'] }));
    pairs.push({ version: columns[i].version, runs: [columns[i - 1].target, columns[i].target], agree: ids.length - differ.length, differ });
  }
  return pairs;
}

/** The trend of the runs given, oldest version first; every report must name the version it holds for. */
export function buildTrend(runs: Judged[]): Trend {
  if (runs.length === 0) throw new TrendError('no run given');
  const ordered = runs
    .map((run, i) => ({ run, i, version: versionOf(run) }))
    .sort((a, b) => byVersion(a.version, b.version) || a.i - b.i)
    .map(({ run }) => run);
  const reports = ordered.map((r) => r.report);
  const columns = columnsOf(ordered);
  const products = [...new Set(reports.map((r) => r.product?.name ?? ''))];
  return {
    kind: 'trend',
    trendVersion: 1,
    product: products.join(', '),
    columns,
    rows: rowsOf(reports, columns),
    profiles: [...new Set(reports.flatMap((r) => r.claim.byProfile.map((p) => p.name)))],
    deviations: deviationsOf(reports, columns),
    pairs: pairsOf(reports, columns),
  };
}
