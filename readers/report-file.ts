import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { REPORTS } from '../harness/evidence/bundle.ts';
import { BundleError } from '../harness/evidence/bundle-error.ts';
import { readBundle } from '../harness/evidence/bundle-reader.ts';
import { bundledDocument } from '../harness/evidence/bundle-document.ts';
import { check } from '../harness/files/checked.ts';
import { FILE_DEPTH, nestsDeeperThan } from '../harness/json/json-depth.ts';
import { isNode } from '../harness/contracts/validator.ts';
import { summaryOf, verdictOf, type ConformanceReport } from '../reporters/conformance-result.ts';
import { bundleBeside } from './bundled-report.ts';
import { verifyBundle } from './verify.ts';

// Reading a report someone hands the suite (merge's shards, diff's runs, a run's baseline): each file read
// whole, as JSON, within bounds of size and depth, and a target's report checked against the report's schema and
// against its own clauses where it is read. What is wrong is one line.

export const REPORT_SCHEMA = new URL('../reporters/conformance-report.schema.json', pathToFileURL(__filename));

/**
 * The most bytes of one report file this suite reads: a target's report is tens of kilobytes (a failing one quotes
 * each violation's body cut short), a matrix's about a kilobyte a target. A larger file is refused by its size
 * before a byte of it is read.
 */
export const REPORT_BYTES = 64 * 1024 * 1024;

/** The most targets of a matrix whose reports are read: each is a file of its own. */
export const REPORT_TARGETS = 100_000;

/** A report file that cannot be taken; its message names the file and what is wrong. */
export class ReportFileError extends Error {}

/**
 * A file's bytes, at most REPORT_BYTES of them. Only a regular file is read: it is opened without waiting (a FIFO
 * would wait for a writer) and looked at before any read (a device may never end).
 */
export function readReportBytes(file: string): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ReportFileError(`${file} cannot be read (not a regular file)`);
    if (stat.size > REPORT_BYTES)
      throw new ReportFileError(`${file} cannot be read: it holds ${stat.size} bytes, more than the ${REPORT_BYTES} this suite reads of a report`);
    // The file may grow while it is read: no more than the bound is taken.
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    for (let n: number; read < bytes.length && (n = readSync(fd, bytes, read, bytes.length - read, null)) > 0; ) read += n;
    return bytes.subarray(0, read);
  } catch (error) {
    if (error instanceof ReportFileError) throw error;
    throw new ReportFileError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function readJsonFile(file: string): unknown {
  return jsonOf(readReportBytes(file).toString('utf8'), file);
}

export function jsonOf(text: string, where: string): unknown {
  // Whatever walks the value recurses (the schema, a diff, the renderings): a file deeper than any report is refused first.
  if (nestsDeeperThan(text, FILE_DEPTH)) throw new ReportFileError(`${where} cannot be read: it nests deeper than ${FILE_DEPTH} levels, as no report does`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ReportFileError(`${where} cannot be read (not JSON)`);
  }
}

/**
 * Why a report says otherwise than its clauses, if it does: its verdict is not the one they give, or its summary
 * does not count them. The verdict a run leaves in its folder when it starts (incomplete, nothing judged) is its own.
 */
function inconsistency(report: ConformanceReport): string | undefined {
  const derived = verdictOf(report);
  const started = report.verdict === 'incomplete' && !report.completed && derived === 'error';
  if (report.verdict !== derived && !started) return `its verdict is ${report.verdict}, and its clauses give ${derived}`;
  if (!isDeepStrictEqual(report.summary, summaryOf(report.clauses))) return 'its summary does not count its clauses';
  return undefined;
}

/** One target's report, as the report's schema has it, saying what its own clauses say. */
export function checkedReport(value: unknown, where: string): ConformanceReport {
  const read = check<ConformanceReport>(REPORT_SCHEMA, value);
  if (!read.ok) throw new ReportFileError(`${where} does not match the report's schema: ${read.errors.join('; ')}`);
  const wrong = inconsistency(read.value);
  if (wrong !== undefined) throw new ReportFileError(`${where} is not a report any run wrote: ${wrong}`);
  return read.value;
}

/** Each target's report file of a conformance.json: its own, or a matrix's targets', each in its folder below the matrix's. */
function reportFilesOf(file: string): { file: string; value: unknown; bytes: Buffer }[] {
  const bytes = readReportBytes(file);
  const value = jsonOf(bytes.toString('utf8'), file);
  if (!isNode(value) || value.kind !== 'matrix') return [{ file, value, bytes }];
  const dir = path.dirname(file);
  const targets: unknown[] = Array.isArray(value.targets) ? value.targets : [];
  if (targets.length > REPORT_TARGETS)
    throw new ReportFileError(`${file} lists ${targets.length} targets, more than the ${REPORT_TARGETS} this suite reads of a run`);
  return targets.map((t) => {
    const report = isNode(t) ? t.report : undefined;
    const page = typeof report === 'string' ? path.resolve(dir, report) : '';
    if (!page.startsWith(path.join(dir, 'targets') + path.sep)) throw new ReportFileError(`${file}: a target's report lies outside its targets/ folder`);
    const own = path.join(path.dirname(page), 'conformance.json');
    const ownBytes = readReportBytes(own);
    return { file: own, value: jsonOf(ownBytes.toString('utf8'), own), bytes: ownBytes };
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

/**
 * The reports of a conformance.json. `verified`: each only as the evidence bundle beside it holds it, the bundle
 * judged again as verify judges it; a report without one is refused.
 */
function reportsOfFile(file: string, verified: boolean): ConformanceReport[] {
  return reportFilesOf(file).map(({ file: own, value, bytes }) => {
    // What is wrong with the file itself is said first; then whether a bundle holds it.
    const report = checkedReport(value, own);
    if (verified) bundleBeside(own, bytes);
    return report;
  });
}

/**
 * A run as given, relative to `cwd`: a bundle, a report folder, or a conformance.json; at least one target's report.
 * `verified`: a report is taken only as the evidence bundle beside it holds it (bundled-report.ts).
 */
export function runOf(given: string, cwd: string = process.cwd(), { verified = false } = {}): Run {
  const where = path.resolve(cwd, given);
  if (!existsSync(where)) throw new ReportFileError(`there is no file or folder ${where}`);
  const run = ((): Run => {
    if (!statSync(where).isDirectory()) return /\.(tar\.gz|tgz)$/.test(where) ? reportsOfBundle(where) : { reports: reportsOfFile(where, verified) };
    if (existsSync(path.join(where, 'manifest.json'))) return reportsOfBundle(where);
    if (existsSync(path.join(where, 'conformance.json'))) return { reports: reportsOfFile(path.join(where, 'conformance.json'), verified) };
    throw new ReportFileError(`${where} holds neither a conformance.json nor an evidence bundle`);
  })();
  // A matrix that lists no target is no run to compare with.
  if (run.reports.length === 0) throw new ReportFileError(`${where} holds no target's report`);
  return run;
}

/** The reports of a run as given (runOf's). */
export const runReports = (given: string, cwd: string = process.cwd()): ConformanceReport[] => runOf(given, cwd).reports;
