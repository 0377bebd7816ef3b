import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { check } from '../harness/files/checked.ts';
import { writeWhole } from '../harness/files/whole-file.ts';
import type { HistorySetting } from '../harness/config/history.ts';
import { visible } from '../harness/files/visible.ts';
import type { ConformanceReport } from './conformance-result.ts';
import { historyLine, type HistoryLine } from './history-line.ts';

// The run history's file: JSON Lines, one line per target per run, read back line by line against its schema
// (history-line.schema.json) and written whole (harness/files/whole-file.ts), the last runs of each target kept.
// A damaged line is named by its number and left out; the file is refused only when it is no file, or too large
// to be a history this suite wrote.

/** A history of 1,000 runs of a few hundred targets stays well below this; a larger file was not written by the suite. */
export const HISTORY_MAX_BYTES = 64 * 1024 * 1024;

/** One target's run with a few hundred clauses takes a few kilobytes. */
const LINE_MAX_CHARACTERS = 256 * 1024;

/** Why the history cannot be read or written at all, in one line. */
export class HistoryFileError extends Error {}

const SCHEMA = new URL('./history-line.schema.json', pathToFileURL(__filename));

/** The history as read: its lines in order, and each damaged one named by its number (from 1) and left out. */
export interface History {
  lines: HistoryLine[];
  damaged: string[];
}

/** One line read: the history line, or why it is none. */
function lineOf(text: string, number: number): HistoryLine | string {
  if (text.length > LINE_MAX_CHARACTERS) return `line ${number} is longer than ${LINE_MAX_CHARACTERS} characters`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `line ${number} is not JSON`;
  }
  const read = check<HistoryLine>(SCHEMA, value);
  return read.ok ? read.value : `line ${number}: ${read.errors.join('; ')}`;
}

/** A history's text read line by line: blank lines are nothing, a damaged one is named and left out. */
export function parseHistory(text: string): History {
  const lines: HistoryLine[] = [];
  const damaged: string[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const read = lineOf(raw, i + 1);
    if (typeof read === 'string') damaged.push(read);
    else lines.push(read);
  });
  return { lines, damaged };
}

/** The history file as read; none yet is an empty history. */
export function readHistory(file: string): History {
  let size: number;
  try {
    const stat = lstatSync(file);
    if (!stat.isFile()) throw new HistoryFileError(`the history ${file} is not a file (a folder, a link or a device); give the path of a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof HistoryFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], damaged: [] };
    throw new HistoryFileError(`the history ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (size > HISTORY_MAX_BYTES)
    throw new HistoryFileError(`the history ${file} holds ${size} bytes, more than the ${HISTORY_MAX_BYTES} a history of this suite holds; give another file`);
  try {
    return parseHistory(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new HistoryFileError(`the history ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The lines kept: the last `runs` of each target, in the order they were appended. */
export function kept(lines: HistoryLine[], runs: number): HistoryLine[] {
  const seen = new Map<string, number>();
  const keep = new Array<boolean>(lines.length).fill(false);
  for (let i = lines.length - 1; i >= 0; i--) {
    const n = (seen.get(lines[i].target.name) ?? 0) + 1;
    seen.set(lines[i].target.name, n);
    keep[i] = n <= runs;
  }
  return lines.filter((_, i) => keep[i]);
}

/**
 * The history with this run's lines appended, the last `runs` of each target kept, written whole: read again
 * now, so that what another run appended since this one started is kept. The damaged lines it left out.
 */
export function appendHistory(file: string, added: HistoryLine[], runs: number): string[] {
  const history = readHistory(file);
  const lines = kept([...history.lines, ...added], runs);
  // A history named in a folder not made yet (the first run of a CI cache) has it made.
  mkdirSync(path.dirname(file), { recursive: true });
  writeWhole(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return history.damaged;
}

/** The SHA-256 of an evidence bundle, as the history names it; none when it cannot be read back. */
function bundleDigest(bundle: string | undefined): string | undefined {
  if (bundle === undefined) return undefined;
  try {
    return createHash('sha256').update(readFileSync(bundle)).digest('hex');
  } catch {
    return undefined;
  }
}

/**
 * A run's targets appended to the history, one line each, and each damaged line said (`say`, one line each): a
 * history that cannot be written is said too, and the run's verdict stands, its reports written.
 */
export function recordRun(setting: HistorySetting, targets: { report: ConformanceReport; bundle?: string }[], run: string, say: (line: string) => void): void {
  const lines = targets.map((t) => historyLine(t.report, run, bundleDigest(t.bundle)));
  try {
    for (const damaged of appendHistory(setting.file, lines, setting.runs)) say(`the history ${setting.file}: ${visible(damaged)}; left out`);
  } catch (error) {
    const why = error instanceof HistoryFileError ? error.message : `it cannot be written (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    say(`the history ${setting.file} keeps no line of this run: ${visible(why)}`);
  }
}
