import { visible } from '../harness/files/visible.ts';
import { diffRuns } from '../reporters/diff.ts';
import { diffMarkdown, diffText } from '../reporters/diff-output.ts';
import { readArguments } from './arguments.ts';
import type { CommandIO } from './command-io.ts';
import { compareTexts, DocumentTextError } from '../readers/document-texts.ts';
import { ReportFileError, runOf } from '../readers/report-file.ts';

// `admin-api-conformance diff OLD NEW [--format text|markdown|json] [--old-document FILE] [--new-document FILE]`:
// two runs compared clause by clause, each a conformance.json, a report folder (a matrix's too) or an evidence
// bundle, verified first; runs judged by two texts of the document have the texts compared row by row (a bundle
// carries its text; a report's is given). Exit 1 when anything regressed, 0 otherwise; 2 when a run or a text
// cannot be read; 3 when the runs share no target to compare.

const USAGE = 'usage: admin-api-conformance diff <old run> <new run> [--format text|markdown|json] [--old-document <its text>] [--new-document <its text>]';
const FORMATS = ['text', 'markdown', 'json'];

/** A line that ends the diff: what is wrong, and its exit code. */
class DiffError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** The two runs and the options. */
function parse(args: string[]): { runs: string[]; format: string; oldDocument?: string; newDocument?: string } {
  const read = readArguments(args, { format: 'value', 'old-document': 'value', 'new-document': 'value' }, USAGE);
  if ('mistake' in read) throw new DiffError(read.mistake);
  const format = read.value('format') ?? 'text';
  if (read.positionals.length !== 2 || !FORMATS.includes(format)) throw new DiffError(USAGE);
  return { runs: read.positionals, format, oldDocument: read.value('old-document'), newDocument: read.value('new-document') };
}

function diff(args: string[], io: CommandIO): number {
  const { runs, format, oldDocument, newDocument } = parse(args);
  const [old, neu] = runs.map((r) => ({ source: r, ...runOf(r, io.cwd) }));
  const documents = compareTexts(
    { side: 'old', sha256: old.reports[0].document.sha256, bundled: old.bundled, given: oldDocument },
    { side: 'new', sha256: neu.reports[0].document.sha256, bundled: neu.bundled, given: newDocument },
  );
  const result = diffRuns(old, neu, documents);
  if (result.changes.length === 0 && result.unchanged === 0)
    throw new DiffError(`the runs share no target to compare (${result.unpaired.map((u) => `${u.target} only in the ${u.in} run`).join(', ')})`, 3);
  if (format === 'json') io.output.out(`${JSON.stringify(result, null, 2)}\n`);
  else if (format === 'markdown') io.output.out(diffMarkdown(result));
  else
    io.output.out(
      diffText(result)
        .map((line) => `${line}\n`)
        .join(''),
    );
  return result.regressions > 0 ? 1 : 0;
}

/** Compares two runs: its exit code, its lines printed. */
export function diffCommand(args: string[], io: CommandIO): number {
  try {
    return diff(args, io);
  } catch (error) {
    if (!(error instanceof DiffError) && !(error instanceof ReportFileError) && !(error instanceof DocumentTextError)) throw error;
    io.output.err(`admin-api-conformance diff: ${visible(error.message)}\n`);
    return error instanceof DiffError ? error.exitCode : 2;
  }
}
