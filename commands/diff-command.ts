import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPORTS } from '../harness/evidence/bundle.ts';
import { BundleError } from '../harness/evidence/bundle-error.ts';
import { readBundle } from '../harness/evidence/bundle-reader.ts';
import { bundledDocument } from '../harness/evidence/bundle-document.ts';
import { visible } from '../harness/files/visible.ts';
import type { ConformanceReport } from '../reporters/conformance-result.ts';
import { diffRuns } from './diff.ts';
import { diffMarkdown, diffText } from './diff-output.ts';
import { compareTexts, DocumentTextError } from './document-texts.ts';
import { checkedReport, jsonOf, readJsonFile, ReportFileError } from './report-file.ts';
import { verifyBundle } from './verify.ts';

// `admin-api-conformance diff OLD NEW [--format text|markdown|json] [--old-document FILE] [--new-document FILE]`:
// two runs compared clause by clause, each a conformance.json, a report folder (a matrix's too) or an evidence
// bundle, verified first; runs judged by two texts of the document have the texts compared row by row (a bundle
// carries its text; a report's is given). Exit 1 when anything regressed, 0 otherwise; 2 when a run or a text
// cannot be read; 3 when the runs share no target to compare.

const USAGE = 'usage: admin-api-conformance diff <old run> <new run> [--format text|markdown|json] [--old-document <its text>] [--new-document <its text>]';
const FORMATS = ['text', 'markdown', 'json'];
const OPTIONS = ['--format', '--old-document', '--new-document'] as const;

/** One run as given: its targets' reports, and the text of the document its bundle carries (null: none). */
interface Run {
  reports: ConformanceReport[];
  bundled?: Buffer | null;
}

/** A line that ends the diff: what is wrong, and its exit code. */
class DiffError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/** The reports of a conformance.json: its own, or a matrix's targets', each in its folder below the matrix's. */
function reportsOfFile(file: string): ConformanceReport[] {
  const value = readJsonFile(file) as { kind?: unknown; targets?: unknown } | null;
  if (value?.kind !== 'matrix') return [checkedReport(value, file)];
  const dir = path.dirname(file);
  const targets = Array.isArray(value.targets) ? value.targets : [];
  return targets.map((t: { report?: unknown }) => {
    const page = typeof t?.report === 'string' ? path.resolve(dir, t.report) : '';
    if (!page.startsWith(path.join(dir, 'targets') + path.sep)) throw new DiffError(`${file}: a target's report lies outside its targets/ folder`);
    const own = path.join(path.dirname(page), 'conformance.json');
    return checkedReport(readJsonFile(own), own);
  });
}

/** A bundle's report, once the bundle verifies: a diff of a changed bundle would compare what nobody ran. */
function reportsOfBundle(where: string): Run {
  let files: ReturnType<typeof readBundle>;
  try {
    files = readBundle(where);
  } catch (error) {
    if (error instanceof BundleError) throw new DiffError(`${where} cannot be read: ${error.message}`);
    throw error;
  }
  // Digests first: a bundle another suite made is compared all the same (diffRuns names the other judge), but
  // only as it was written.
  const [problem] = verifyBundle(files).differences;
  if (problem !== undefined) throw new DiffError(`${where} does not verify (${problem}); admin-api-conformance verify names every difference`);
  const name = `${REPORTS}/conformance.json`;
  const reports = [checkedReport(jsonOf(files.get(name)!.toString('utf8'), `${where}: ${name}`), `${where}: ${name}`)];
  return { reports, bundled: bundledDocument(files)?.bytes ?? null };
}

/** The reports of a run as given: a bundle, a report folder, or a conformance.json. */
function runOf(given: string): Run {
  const where = path.resolve(given);
  if (!existsSync(where)) throw new DiffError(`there is no file or folder ${where}`);
  if (statSync(where).isDirectory()) {
    if (existsSync(path.join(where, 'manifest.json'))) return reportsOfBundle(where);
    if (existsSync(path.join(where, 'conformance.json'))) return { reports: reportsOfFile(path.join(where, 'conformance.json')) };
    throw new DiffError(`${where} holds neither a conformance.json nor an evidence bundle`);
  }
  return /\.(tar\.gz|tgz)$/.test(where) ? reportsOfBundle(where) : { reports: reportsOfFile(where) };
}

/** The two runs and the options, each option once, as `--option value` or `--option=value`. */
function parse(args: string[]): { runs: string[]; options: Partial<Record<(typeof OPTIONS)[number], string>> } {
  const runs: string[] = [];
  const options: Partial<Record<(typeof OPTIONS)[number], string>> = {};
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].startsWith('--') ? args[i].split(/=(.*)/s) : [args[i]];
    const option = OPTIONS.find((o) => o === name);
    if (option === undefined && name.startsWith('-')) throw new DiffError(USAGE);
    if (option === undefined) runs.push(name);
    else if (options[option] !== undefined) throw new DiffError(`${option} is given twice`);
    else options[option] = inline ?? args[++i];
    if (option !== undefined && !options[option]) throw new DiffError(USAGE);
  }
  if (runs.length !== 2 || !FORMATS.includes(options['--format'] ?? 'text')) throw new DiffError(USAGE);
  return { runs, options };
}

function diff(args: string[]): number {
  const { runs, options } = parse(args);
  const format = options['--format'] ?? 'text';
  const [old, neu] = runs.map((r) => ({ source: r, ...runOf(r) }));
  // A matrix that lists no target is no run to compare.
  for (const run of [old, neu]) if (run.reports.length === 0) throw new DiffError(`${path.resolve(run.source)} holds no target's report`);
  const documents = compareTexts(
    { side: 'old', sha256: old.reports[0].document.sha256, bundled: old.bundled, given: options['--old-document'] },
    { side: 'new', sha256: neu.reports[0].document.sha256, bundled: neu.bundled, given: options['--new-document'] },
  );
  const result = diffRuns(old, neu, documents);
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
  if (!(error instanceof DiffError) && !(error instanceof ReportFileError) && !(error instanceof DocumentTextError)) throw error;
  process.stderr.write(`admin-api-conformance diff: ${visible(error.message)}\n`);
  process.exitCode = error instanceof DiffError ? error.exitCode : 2;
}
