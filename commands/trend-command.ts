import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { visible } from '../harness/files/visible.ts';
import { ReportFileError, runOf } from '../readers/report-file.ts';
import { readArguments } from './arguments.ts';
import type { CommandIO } from './command-io.ts';
import { buildTrend, TrendError } from './trend.ts';
import { trendMarkdown } from './trend-markdown.ts';

// `admin-api-conformance trend RUN… [--format markdown|json] [--title TEXT] [--notes FILE] [--out FILE]`: a
// product's conformance over its versions, from runs of several versions (each a conformance.json, a report
// folder or an evidence bundle, read and checked as diff reads one), each report naming the version it holds
// for. Exit 0 once written; 2 when a run cannot be read or names no version.

const USAGE = 'usage: admin-api-conformance trend <run> <run>... [--format markdown|json] [--title <text>] [--notes <markdown file>] [--out <file>]';

/** Notes are the caller's Markdown, put on the page as they are: bounded, as any file the suite reads. */
const NOTES_BYTES = 256 * 1024;

function readNotes(file: string, cwd: string): string {
  const where = path.resolve(cwd, file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(where);
  } catch (error) {
    throw new TrendError(`--notes ${where} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (bytes.byteLength > NOTES_BYTES) throw new TrendError(`--notes ${where} has ${bytes.byteLength} bytes; notes are at most ${NOTES_BYTES}`);
  return bytes.toString('utf8');
}

function trend(args: string[], io: CommandIO): number {
  const read = readArguments(args, { format: 'value', title: 'value', notes: 'value', out: 'value' }, USAGE);
  if ('mistake' in read) throw new TrendError(read.mistake);
  const format = read.value('format') ?? 'markdown';
  if (read.positionals.length === 0 || !['markdown', 'json'].includes(format)) throw new TrendError(USAGE);
  const runs = read.positionals.flatMap((source) => runOf(source, io.cwd).reports.map((report) => ({ source, report })));
  const result = buildTrend(runs);
  const notes = read.value('notes');
  const text =
    format === 'json'
      ? `${JSON.stringify(result, null, 2)}\n`
      : trendMarkdown(result, { title: read.value('title'), notes: notes && readNotes(notes, io.cwd) });
  const out = read.value('out');
  if (out === undefined) io.output.out(text);
  else {
    writeFileSync(path.resolve(io.cwd, out), text);
    io.output.err(`admin-api-conformance trend: ${result.columns.length} runs, ${result.rows.length} clauses, written to ${out}\n`);
  }
  return 0;
}

/** Draws the trend of the runs given: its exit code, its page printed or written. */
export function trendCommand(args: string[], io: CommandIO): number {
  try {
    return trend(args, io);
  } catch (error) {
    if (!(error instanceof TrendError) && !(error instanceof ReportFileError)) throw error;
    io.output.err(`admin-api-conformance trend: ${visible(error.message)}\n`);
    return 2;
  }
}
