import path from 'node:path';
import { parseSwitch } from '../harness/config/embedded.ts';
import { variable, type Variables } from '../harness/config/sources.ts';
import { writeWhole } from '../harness/files/whole-file.ts';
import { renderReportMetrics, type MetricsOptions, type MetricsView } from './metrics.ts';

// `metrics.prom` in the run's report folder, one for the run however many targets: what a cron job hands
// node_exporter's textfile collector, or a pipeline its Pushgateway.

/** The setting that adds a series per clause and target. */
export const METRICS_CLAUSES_VARIABLE = 'CONFORMANCE_METRICS_CLAUSES';

/** What the run's metrics hold, from its settings: a series per clause only when asked for. */
export const metricsSettingsOf = (variables: Variables): MetricsOptions => ({
  clauses: parseSwitch(METRICS_CLAUSES_VARIABLE, variable(variables, METRICS_CLAUSES_VARIABLE)) === true,
});

/** Writes `metrics.prom` whole (beside, then renamed: a collector never reads half of one); returns its path. */
export function writeMetricsFile(dir: string, reports: MetricsView[], options: MetricsOptions): string {
  const file = path.join(dir, 'metrics.prom');
  writeWhole(file, renderReportMetrics(reports, options));
  return file;
}
