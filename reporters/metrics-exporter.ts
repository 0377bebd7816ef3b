import type { MetricFamily } from './metrics-text.ts';

// The exporter's own metrics (`GET /metrics` of `admin-api-conformance serve`): what it was asked, what it ran and
// how long that took, what is running now. A pure function of its counts.

/** How a probe was answered: a run of its own, a run already in flight joined, or the result of one younger than --min-interval. */
export type ProbeAnswer = 'fresh' | 'joined' | 'cached';

/** Why a request had no metrics of a target: a name not of the fleet, a malformed request, every run slot taken, a run that broke. */
export type Refusal = 'unknown-target' | 'bad-request' | 'busy' | 'failed';

export interface ExporterCounts {
  targets: number;
  probes: Record<ProbeAnswer, number>;
  refused: Record<Refusal, number>;
  /** Runs ended with a report, by verdict. */
  runs: Record<string, number>;
  /** Runs that ended without a report: the engine's own error, a report folder that could not be written. */
  failures: number;
  runSeconds: { sum: number; count: number };
  inFlight: number;
  maxInFlight: number;
}

const counter = (name: string, help: string, samples: MetricFamily['samples']): MetricFamily => ({ name, type: 'counter', help, samples });

export function exporterFamilies(counts: ExporterCounts): MetricFamily[] {
  const by = (label: string, values: Record<string, number>) => Object.entries(values).map(([value, n]) => ({ labels: { [label]: value }, value: n }));
  return [
    {
      name: 'conformance_exporter_targets',
      type: 'gauge',
      help: 'The targets of the fleet the exporter may probe.',
      samples: [{ labels: {}, value: counts.targets }],
    },
    counter(
      'conformance_exporter_probes',
      'Probes answered with metrics, by how: a run of their own, a run in flight joined, a cached result.',
      by('answer', counts.probes),
    ),
    counter('conformance_exporter_refusals', 'Requests answered without metrics, by why.', by('reason', counts.refused)),
    counter('conformance_exporter_runs', 'Runs of a target that ended with a report, by its verdict.', by('verdict', counts.runs)),
    counter('conformance_exporter_run_failures', 'Runs of a target that ended without a report.', [{ labels: {}, value: counts.failures }]),
    {
      name: 'conformance_exporter_run_duration_seconds',
      type: 'summary',
      help: 'How long the runs of targets took.',
      unit: 'seconds',
      samples: [
        { labels: {}, value: counts.runSeconds.sum, suffix: '_sum' },
        { labels: {}, value: counts.runSeconds.count, suffix: '_count' },
      ],
    },
    { name: 'conformance_exporter_runs_in_flight', type: 'gauge', help: 'Runs of targets under way now.', samples: [{ labels: {}, value: counts.inFlight }] },
    {
      name: 'conformance_exporter_runs_in_flight_limit',
      type: 'gauge',
      help: 'The most runs under way at once (--max-in-flight).',
      samples: [{ labels: {}, value: counts.maxInFlight }],
    },
  ];
}
