import path from 'node:path';
import { ConfigError } from '../files/config-error.ts';
import { realPath, within } from '../files/folders.ts';
import { FRESHNESS_WORDS, STALE_AFTER_VARIABLE, staleAfterMinutes, type Freshness } from './freshness.ts';
import { variable, type Variables } from './sources.ts';

// The run history a run appends to (CONFORMANCE_HISTORY), how many runs of each target it keeps, and how old a
// clause's last verdict may be before it is stale. Reading and writing the file is reporters/history-file.ts's.

/** The history file: JSON Lines, one line per target per run. */
export const HISTORY_VARIABLE = 'CONFORMANCE_HISTORY';

/** How many runs of each target the history keeps. */
export const HISTORY_RUNS_VARIABLE = 'CONFORMANCE_HISTORY_RUNS';

/** The runs of a target kept when CONFORMANCE_HISTORY_RUNS is not set. */
export const HISTORY_RUNS_DEFAULT = 50;

/** A history of more runs a target than this would be read and rewritten whole at every run for little use. */
const HISTORY_RUNS_MAX = 1_000;

export interface HistorySetting {
  /** The file, as given and where it is. */
  given: string;
  file: string;
  /** How many runs of each target are kept. */
  runs: number;
  /** How old a clause's last verdict may be before a run that does not judge it calls it stale. */
  staleAfter?: Freshness;
}

function runsOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return HISTORY_RUNS_DEFAULT;
  const runs = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(runs >= 2 && runs <= HISTORY_RUNS_MAX))
    throw new ConfigError(
      `${HISTORY_RUNS_VARIABLE} is how many runs of each target the history keeps: a whole number from 2 to ${HISTORY_RUNS_MAX}, not "${raw.slice(0, 20)}"`,
    );
  return runs;
}

function staleAfterOf(raw: string | undefined): Freshness | undefined {
  if (raw === undefined || raw === '') return undefined;
  const minutes = staleAfterMinutes(raw.trim());
  if (minutes === undefined) throw new ConfigError(`${STALE_AFTER_VARIABLE} ${FRESHNESS_WORDS}, not "${raw.slice(0, 20)}"`);
  return { minutes, given: raw.trim() };
}

/**
 * The history as set, checked before any request; `reportDir` is the run's report folder, which the run clears:
 * a history inside it would be lost at the next run. An empty value counts as unset.
 */
export function historyOf(variables: Variables, cwd: string, reportDir: string): HistorySetting | undefined {
  const given = variable(variables, HISTORY_VARIABLE);
  const runs = runsOf(variable(variables, HISTORY_RUNS_VARIABLE));
  const staleAfter = staleAfterOf(variable(variables, STALE_AFTER_VARIABLE));
  if (given === undefined || given === '') return undefined;
  if (given.trim() === '')
    throw new ConfigError(`${HISTORY_VARIABLE} holds only spaces: give the file the run history is kept in, such as conformance-history.jsonl`);
  const file = path.resolve(cwd, given);
  if (within(realPath(file), realPath(reportDir)))
    throw new ConfigError(`${HISTORY_VARIABLE} ${file} lies in the report folder ${reportDir}, which every run clears: keep the history elsewhere`);
  return { given, file, runs, ...(staleAfter && { staleAfter }) };
}
