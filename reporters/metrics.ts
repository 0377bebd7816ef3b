import type { ConformanceReport, Verdict } from './conformance-result.ts';
import { labelName, renderMetrics, type MetricFamily, type MetricsFormat, type Sample } from './metrics-text.ts';
import type { ProfileScore, Score } from './scores.ts';

// `metrics.prom`: a run's results as a monitoring system reads them, a pure function of the targets' reports. One
// series per target and claimed profile, a handful per target, and each clause only when asked for: 46 clauses
// times 10,000 tenants is more series than a Prometheus should hold for one suite. Names follow Prometheus'
// conventions (the suite's prefix, base units, `_timestamp_seconds`, `_info` for versions); no label holds a base
// URL, a token or anything the reports hid.

/** Every verdict a report can give, in the order the state set lists them. */
const VERDICTS: Verdict[] = ['pass', 'fail', 'error', 'partial', 'incomplete'];

/** The verdicts that are one: the target was judged, whichever way. */
const DECIDED: ReadonlySet<Verdict> = new Set(['pass', 'fail']);

export interface MetricsOptions {
  /** A series per target and clause (CONFORMANCE_METRICS_CLAUSES). */
  clauses?: boolean;
  /** When each target last had a verdict, in seconds, where an earlier run gave one (the exporter remembers). */
  lastVerdictAt?: ReadonlyMap<string, number>;
  /** A run of several targets' scores (reporters/scores.ts): each claimed profile's share of targets that meet it, overall and by tag. */
  scores?: ProfileScore[];
}

/** What the metrics read of a report: a few fields, small enough to keep for each target of a fleet whose reports are let go. */
export type MetricsView = Pick<ConformanceReport, 'target' | 'product' | 'verdict' | 'startedAt' | 'durationMs' | 'requests' | 'suite' | 'document'> & {
  tags?: unknown;
  claim: { byProfile: Pick<ConformanceReport['claim']['byProfile'][number], 'name' | 'claimed' | 'status'>[] };
  clauses: Pick<ConformanceReport['clauses'][number], 'id' | 'status' | 'deviation'>[];
};

/** A report's metrics view (MetricsView). */
export const metricsViewOf = (r: ConformanceReport & { tags?: unknown }): MetricsView => ({
  target: r.target,
  product: r.product,
  verdict: r.verdict,
  startedAt: r.startedAt,
  durationMs: r.durationMs,
  requests: r.requests,
  suite: r.suite,
  document: r.document,
  ...(r.tags !== undefined && { tags: r.tags }),
  claim: { byProfile: r.claim.byProfile.map(({ name, claimed, status }) => ({ name, claimed, status })) },
  clauses: r.clauses.map(({ id, status, deviation }) => ({ id, status, ...(deviation && { deviation }) })),
});

/** A report's tags (a fleet file's inventory), where it carries them: an object of strings, anything else ignored. */
function tagsOf(report: MetricsView): [string, string][] {
  const tags = report.tags;
  if (tags === null || typeof tags !== 'object' || Array.isArray(tags)) return [];
  return Object.entries(tags).filter((e): e is [string, string] => typeof e[1] === 'string');
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

const gauge = (name: string, help: string, samples: Sample[], unit?: 'seconds'): MetricFamily => ({
  name,
  type: 'gauge',
  help,
  samples,
  ...(unit && { unit }),
});

/** The suite that judged: one series, whatever the number of targets. */
function suiteFamily(report: MetricsView | undefined): MetricFamily {
  const labels = report && { version: report.suite.version, contracts_digest: report.suite.contractsHash, document_sha256: report.document.sha256 };
  return gauge(
    'conformance_suite_info',
    'The conformance suite that judged: its version, its contracts and its text of the document.',
    labels ? [{ labels, value: 1 }] : [],
  );
}

/** Each target's own series, family by family. */
function targetFamilies(reports: MetricsView[], options: MetricsOptions): MetricFamily[] {
  const each = (pick: (r: MetricsView, target: { target: string }) => Sample[]) => reports.flatMap((r) => pick(r, { target: r.target.name }));
  const lastVerdict = (r: MetricsView) => (DECIDED.has(r.verdict) ? seconds(r.startedAt) : options.lastVerdictAt?.get(r.target.name));
  const deviations = (r: MetricsView) => r.clauses.filter((c) => c.deviation !== undefined);
  return [
    gauge(
      'conformance_target_info',
      "A target of the run, with its fleet file's tags (tag_<key>) where it has any.",
      each((r, t) => [{ labels: { ...t, ...Object.fromEntries(tagsOf(r).map(([k, v]) => [`tag_${labelName(k)}`, v])) }, value: 1 }]),
    ),
    gauge(
      'conformance_product_info',
      'The product under test, as its vendor states it.',
      each((r, t) =>
        r.product ? [{ labels: { ...t, product: r.product.name, version: r.product.version ?? '', vendor: r.product.vendor ?? '' }, value: 1 }] : [],
      ),
    ),
    gauge(
      'conformance_verdict',
      'The verdict of the latest run of the target: 1 for its verdict, 0 for the others.',
      each((r, t) => VERDICTS.map((verdict) => ({ labels: { ...t, verdict }, value: r.verdict === verdict ? 1 : 0 }))),
    ),
    gauge(
      'conformance_profile_met',
      'Whether the target meets a profile it claims: every MUST clause of it exercised and met (known deviations aside).',
      each((r, t) => r.claim.byProfile.filter((p) => p.claimed).map((p) => ({ labels: { ...t, profile: p.name }, value: p.status === 'met' ? 1 : 0 }))),
    ),
    gauge(
      'conformance_run_timestamp_seconds',
      'When the latest run of the target took its answers.',
      each((r, t) => [{ labels: t, value: seconds(r.startedAt) }]),
      'seconds',
    ),
    gauge(
      'conformance_last_verdict_timestamp_seconds',
      'When a run of the target last gave a verdict (pass or fail).',
      each((r, t) => {
        const at = lastVerdict(r);
        return at === undefined ? [] : [{ labels: t, value: at }];
      }),
      'seconds',
    ),
    gauge(
      'conformance_run_duration_seconds',
      'How long the latest run of the target took.',
      each((r, t) => [{ labels: t, value: r.durationMs / 1000 }]),
      'seconds',
    ),
    gauge(
      'conformance_run_requests',
      'The requests the latest run sent the target.',
      each((r, t) => [{ labels: t, value: r.requests?.count ?? 0 }]),
    ),
    gauge(
      'conformance_known_deviations',
      'The known deviations the target declares for clauses of this run.',
      each((r, t) => [{ labels: t, value: deviations(r).length }]),
    ),
    gauge(
      'conformance_deviation_expiry_timestamp_seconds',
      'When a known deviation expires: from that day on it no longer excuses a failure.',
      each((r, t) =>
        deviations(r).flatMap((c) => (c.deviation?.expires ? [{ labels: { ...t, clause: c.id }, value: seconds(`${c.deviation.expires}T00:00:00Z`) }] : [])),
      ),
      'seconds',
    ),
    gauge(
      'conformance_clause_status',
      "Each clause's status in the latest run (only with CONFORMANCE_METRICS_CLAUSES): 1 for its status.",
      options.clauses ? each((r, t) => r.clauses.map((c) => ({ labels: { ...t, clause: c.id, status: c.status }, value: 1 }))) : [],
    ),
  ];
}

/** A score's samples: its ratio, absent with insufficient data (neither 0 nor 1 is true of it), and its targets met and judged. */
const ratioOf = (score: Score, labels: Record<string, string>): Sample[] => (score.share === undefined ? [] : [{ labels, value: score.share }]);
const targetsOf = (score: Score, labels: Record<string, string>): Sample[] => [
  { labels: { ...labels, state: 'met' }, value: score.met },
  { labels: { ...labels, state: 'judged' }, value: score.judged },
];

/** Each profile's score by each value of each tag, as its labels. */
const byTag = (score: ProfileScore) =>
  Object.entries(score.byTag).flatMap(([tag, values]) =>
    Object.entries(values).map(([value, s]) => ({ labels: { profile: score.profile, tag, value }, score: s })),
  );

/**
 * A fleet's scores: one series per profile, and per profile, tag and value in families of their own, so that a sum
 * or an average over one family never mixes the fleet with its parts.
 */
function scoreFamilies(scores: ProfileScore[]): MetricFamily[] {
  const overall = (pick: (s: Score, labels: Record<string, string>) => Sample[]) => scores.flatMap((s) => pick(s, { profile: s.profile }));
  const tagged = (pick: (s: Score, labels: Record<string, string>) => Sample[]) => scores.flatMap(byTag).flatMap((t) => pick(t.score, t.labels));
  return [
    gauge(
      'conformance_profile_score_ratio',
      'The share of the targets that claim and exercised a profile that meet it; absent where none exercised it (insufficient data).',
      overall(ratioOf),
    ),
    gauge('conformance_profile_targets', 'The targets that claim a profile: that meet it (met), that exercised it (judged).', overall(targetsOf)),
    gauge(
      'conformance_profile_insufficient_data',
      'Whether no target that claims a profile exercised it: 1, and its score has no ratio; 0 where it has one.',
      scores.map((s) => ({ labels: { profile: s.profile }, value: s.status === 'insufficient-data' ? 1 : 0 })),
    ),
    gauge(
      'conformance_profile_tag_score_ratio',
      "A profile's score among the targets with one value of a tag of the inventory; absent where none of them exercised it.",
      tagged(ratioOf),
    ),
    gauge('conformance_profile_tag_targets', 'The targets with one value of a tag that claim a profile: that meet it, that exercised it.', tagged(targetsOf)),
  ];
}

/** The metric families of a run's reports: the suite, then each target's, then the scores of a run of several. */
export const metricFamilies = (reports: MetricsView[], options: MetricsOptions = {}): MetricFamily[] => [
  suiteFamily(reports[0]),
  ...targetFamilies(reports, options),
  ...scoreFamilies(options.scores ?? []),
];

/** `metrics.prom`, or a scrape's answer: the reports' metrics in the format asked for (OpenMetrics by default). */
export const renderReportMetrics = (reports: MetricsView[], options: MetricsOptions = {}, format: MetricsFormat = 'openmetrics'): string =>
  renderMetrics(metricFamilies(reports, options), format);
