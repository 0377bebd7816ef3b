import type { ConformanceReport, Verdict } from '../reporters/conformance-result.ts';
import type { MatrixReport } from '../reporters/matrix-result.ts';

// What a run gives back: the verdict, the exit code the command exits with, and each target's report and files.

/** One target's outcome, once its files are written. */
export interface TargetResult {
  name: string;
  verdict: Verdict;
  /** The target's report folder, and its files there (conformance.json, index.html, ...). */
  reportDir: string;
  files: string[];
  /** The target's page, relative to the run's report folder. */
  page: string;
  /** The evidence bundle, when one was written. */
  bundle?: string;
  /** The report as conformance.json holds it. */
  report: ConformanceReport;
}

export interface RunResult {
  /** The run's verdict: its one target's, or its matrix's; `error` when the configuration was refused. */
  verdict: Verdict;
  /** 0 pass, 1 a violation (or a regression under the ratchet), 2 configuration error, 3 no verdict (docs/outcomes.md). */
  exitCode: number;
  /** Where the run's reports went; undefined when a configuration error named no folder. */
  reportDir?: string;
  targets: TargetResult[];
  /** The matrix of a run of several targets. */
  matrix?: MatrixReport;
  /** Why the run judged nothing (a configuration error, a stop), in one line; undefined when it judged. */
  reason?: string;
}
