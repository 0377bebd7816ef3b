import type { Gate } from '../harness/config/gate.ts';
import type { BaselineComparison, ConformanceReport } from './conformance-result.ts';
import { diffRuns, pairs, type DocumentComparison } from './diff.ts';

// A run compared with its baseline (CONFORMANCE_BASELINE) as `admin-api-conformance diff` compares two runs:
// each target's report gets what changed since, a pure function of both runs' reports.

/** A baseline run as read (readers/report-file.ts runReports): as given, and its targets' reports. */
export interface Baseline {
  source: string;
  reports: ConformanceReport[];
  /** The baseline's text of the document and this run's, compared row by row, when they differ (as diff compares them). */
  documents?: DocumentComparison;
}

/** How the diff names the run being compared: it is not a file anyone gave. */
const THIS_RUN = 'this run';

/**
 * Each target's report with its comparison: paired with the baseline's targets as diff pairs them, by name,
 * or one with one whatever their names; a target the baseline lacks is compared with nothing.
 */
export function compareWithBaseline(reports: ConformanceReport[], baseline: Baseline, gate: Gate): ConformanceReport[] {
  const { judgeChanged } = diffRuns(baseline, { source: THIS_RUN, reports }, baseline.documents);
  const matched = pairs(baseline.reports, reports).pairs;
  return reports.map((report) => {
    const before = matched.find(([, after]) => after === report)?.[0];
    const own = before && diffRuns({ source: baseline.source, reports: [before] }, { source: THIS_RUN, reports: [report] }, baseline.documents);
    const comparison: BaselineComparison = {
      source: baseline.source,
      gate,
      ...(before && { compared: { target: before.target.name, ...(!before.target.embedded && { baseUrl: before.target.baseUrl }), verdict: before.verdict } }),
      judgeChanged,
      changes: own?.changes ?? [],
      unchanged: own?.unchanged ?? 0,
      regressions: own?.regressions ?? 0,
    };
    return { ...report, baseline: comparison };
  });
}
