import { randomBytes } from 'node:crypto';
import type { HistorySetting } from '../harness/config/history.ts';
import type { Shard } from '../harness/config/targets.ts';
import { ConfigError } from '../harness/files/config-error.ts';
import type { ConformanceReport } from '../reporters/conformance-result.ts';
import { HistoryFileError, readHistory, recordRun, type History } from '../reporters/history-file.ts';
import { earlierRuns, labelled } from '../reporters/history-labels.ts';
import type { Output } from './output.ts';
import type { TargetResult } from './result.ts';

// The run history as a step of a run: read with the settings (before anything is sent, so that a history that
// cannot be read is said at once), each target's report labelled against it once the verdicts are known, and
// this run's lines appended once its reports are written. A shard appends nothing: the merge appends the run's.

/** The history a run keeps: the setting, the file as read when the run started, and the run's identity. */
export interface RunHistory {
  setting: HistorySetting;
  read: History;
  run: string;
}

/** The identity a run's lines carry: the one its shards share or the CI's, or one of its own. */
export const runIdentityFor = (given: string | undefined, shard: Shard | undefined) =>
  shard?.run ?? given ?? `local ${new Date().toISOString()} ${randomBytes(4).toString('hex')}`;

/** The history file read for a run: a file that cannot be read at all is a configuration error, nothing sent. */
export function historyFor(setting: HistorySetting, run: string): RunHistory {
  try {
    return { setting, read: readHistory(setting.file), run };
  } catch (error) {
    if (!(error instanceof HistoryFileError)) throw error;
    throw new ConfigError(`CONFORMANCE_HISTORY: ${error.message}`);
  }
}

/** Each target's report labelled against its earlier runs: a pure function of the reports and the history read. */
export function labelledReports(reports: ConformanceReport[], history: RunHistory | undefined): ConformanceReport[] {
  if (history === undefined) return reports;
  const { setting, read, run } = history;
  return reports.map((r) => labelled(r, earlierRuns(read.lines, r.target.name, setting.runs), run, setting.staleAfter));
}

/**
 * The run's lines appended, each damaged line of the history named: a history that cannot be written is said
 * in one line, and the run's verdict stands (its reports are written).
 */
export function recordHistory(history: RunHistory, targets: Pick<TargetResult, 'report' | 'bundle'>[], output: Output): void {
  recordRun(history.setting, targets, history.run, (line) => output.err(`conformance: ${line}\n`));
}

/** Whether a run appends its lines: one that ended, judged live and whole (a shard's are the merge's to append). */
export const appends = (run: { shard?: Shard }, status: string, replay: boolean) =>
  run.shard === undefined && !replay && status !== 'interrupted' && status !== 'timedout';
