import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPORTS } from '../harness/evidence/bundle.ts';
import { BundleError } from '../harness/evidence/bundle-error.ts';
import { readBundle } from '../harness/evidence/bundle-reader.ts';
import { bundledDocument } from '../harness/evidence/bundle-document.ts';
import { check } from '../harness/files/checked.ts';
import { isNode } from '../harness/contracts/validator.ts';
import type { ConformanceReport } from '../reporters/conformance-result.ts';
import { verifyBundle } from './verify.ts';

// Reading a report someone hands the suite (merge's shards, diff's runs, a run's baseline): each file read
// whole, as JSON, and a target's report checked against the report's schema where it is read. What is wrong
// is one line.

export const REPORT_SCHEMA = new URL('../reporters/conformance-report.schema.json', pathToFileURL(__filename));

/** A report file that cannot be taken; its message names the file and what is wrong. */
export class ReportFileError extends Error {}

export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    // Only a regular file is opened: opening a FIFO waits for a writer, and a device may never end.
    if (!statSync(file).isFile()) throw new ReportFileError(`${file} cannot be read (not a regular file)`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof ReportFileError) throw error;
    throw new ReportFileError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return jsonOf(text, file);
}

export function jsonOf(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ReportFileError(`${where} cannot be read (not JSON)`);
  }
}

/** One target's report, as the report's schema has it. */
export function checkedReport(value: unknown, where: string): ConformanceReport {
  const read = check<ConformanceReport>(REPORT_SCHEMA, value);
  if (!read.ok) throw new ReportFileError(`${where} does not match the report's schema: ${read.errors.join('; ')}`);
  return read.value;
}

/** The reports of a conformance.json: its own, or a matrix's targets', each in its folder below the matrix's. */
function reportsOfFile(file: string): ConformanceReport[] {
  const value = readJsonFile(file);
  if (!isNode(value) || value.kind !== 'matrix') return [checkedReport(value, file)];
  const dir = path.dirname(file);
  const targets: unknown[] = Array.isArray(value.targets) ? value.targets : [];
  return targets.map((t) => {
    const report = isNode(t) ? t.report : undefined;
    const page = typeof report === 'string' ? path.resolve(dir, report) : '';
    if (!page.startsWith(path.join(dir, 'targets') + path.sep)) throw new ReportFileError(`${file}: a target's report lies outside its targets/ folder`);
    const own = path.join(path.dirname(page), 'conformance.json');
    return checkedReport(readJsonFile(own), own);
  });
}

/** One run as given: its targets' reports, and the text of the document its bundle carries (null: none; undefined: no bundle). */
export interface Run {
  reports: ConformanceReport[];
  bundled?: Buffer | null;
}

/** A bundle's report, once the bundle verifies: a report of a changed bundle would say what nobody ran. */
function reportsOfBundle(where: string): Run {
  let files: ReturnType<typeof readBundle>;
  try {
    files = readBundle(where);
  } catch (error) {
    if (error instanceof BundleError) throw new ReportFileError(`${where} cannot be read: ${error.message}`);
    throw error;
  }
  // Digests first: a bundle another suite made is taken all the same (a diff names the other judge), but
  // only as it was written.
  const [problem] = verifyBundle(files).differences;
  if (problem !== undefined) throw new ReportFileError(`${where} does not verify (${problem}); admin-api-conformance verify names every difference`);
  const name = `${REPORTS}/conformance.json`;
  const reports = [checkedReport(jsonOf(files.get(name)!.toString('utf8'), `${where}: ${name}`), `${where}: ${name}`)];
  return { reports, bundled: bundledDocument(files)?.bytes ?? null };
}

/** A run as given, relative to `cwd`: a bundle, a report folder, or a conformance.json; at least one target's report. */
export function runOf(given: string, cwd: string = process.cwd()): Run {
  const where = path.resolve(cwd, given);
  if (!existsSync(where)) throw new ReportFileError(`there is no file or folder ${where}`);
  const run = ((): Run => {
    if (!statSync(where).isDirectory()) return /\.(tar\.gz|tgz)$/.test(where) ? reportsOfBundle(where) : { reports: reportsOfFile(where) };
    if (existsSync(path.join(where, 'manifest.json'))) return reportsOfBundle(where);
    if (existsSync(path.join(where, 'conformance.json'))) return { reports: reportsOfFile(path.join(where, 'conformance.json')) };
    throw new ReportFileError(`${where} holds neither a conformance.json nor an evidence bundle`);
  })();
  // A matrix that lists no target is no run to compare with.
  if (run.reports.length === 0) throw new ReportFileError(`${where} holds no target's report`);
  return run;
}

/** The reports of a run as given (runOf's). */
export const runReports = (given: string, cwd: string = process.cwd()): ConformanceReport[] => runOf(given, cwd).reports;
