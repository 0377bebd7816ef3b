import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { check } from '../harness/files/checked.ts';
import type { ConformanceReport } from '../reporters/conformance-result.ts';

// Reading a report someone hands a command (merge's shards, diff's runs): each file read whole, as JSON, and
// a target's report checked against the report's schema where it is read. What is wrong is one line.

export const REPORT_SCHEMA = new URL('../reporters/conformance-report.schema.json', pathToFileURL(__filename));

/** A report file that cannot be taken; its message names the file and what is wrong. */
export class ReportFileError extends Error {}

export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
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
