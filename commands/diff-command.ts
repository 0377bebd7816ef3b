import { visible } from '../harness/files/visible.ts';
import { diffRuns } from '../reporters/diff.ts';
import { diffMarkdown, diffText } from '../reporters/diff-output.ts';
import { ReportFileError, runReports } from './report-file.ts';

// `admin-api-conformance diff OLD NEW [--format text|markdown|json]`: two runs compared clause by clause, each
// a conformance.json, a report folder (a matrix's too) or an evidence bundle, verified first. Exit 1 when
// anything regressed, 0 otherwise; 2 when a run cannot be read; 3 when the runs share no target to compare.

const USAGE = 'usage: admin-api-conformance diff <old run> <new run> [--format text|markdown|json]';
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

function diff(args: string[]): number {
  const at = args.findIndex((a) => a === '--format' || a.startsWith('--format='));
  const format = at < 0 ? 'text' : args[at] === '--format' ? args[at + 1] : args[at].slice('--format='.length);
  const runs = at < 0 ? args : args.filter((_, i) => i !== at && !(args[at] === '--format' && i === at + 1));
  if (runs.length !== 2 || runs.some((r) => r.startsWith('-')) || !FORMATS.includes(format ?? '')) throw new DiffError(USAGE);
  const [old, neu] = runs.map((r) => ({ source: r, reports: runReports(r) }));
  const result = diffRuns(old, neu);
  if (result.changes.length === 0 && result.unchanged === 0)
    throw new DiffError(`the runs share no target to compare (${result.unpaired.map((u) => `${u.target} only in the ${u.in} run`).join(', ')})`, 3);
  if (format === 'json') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (format === 'markdown') process.stdout.write(diffMarkdown(result));
  else
    process.stdout.write(
      diffText(result)
        .map((line) => `${line}\n`)
        .join(''),
    );
  return result.regressions > 0 ? 1 : 0;
}

try {
  // Set, not exited with: output to a pipe is written after this line, and an exit would cut it.
  process.exitCode = diff(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof DiffError) && !(error instanceof ReportFileError)) throw error;
  process.stderr.write(`admin-api-conformance diff: ${visible(error.message)}\n`);
  process.exitCode = error instanceof DiffError ? error.exitCode : 2;
}
