#!/usr/bin/env node
// @ts-check
// The verdict of the report a run of the action wrote, for the step's outputs, and the reason of a refused
// configuration, for the job summary. The report folder lies in the workspace, where whoever controls the checked-out
// tree may have left a conformance.json of their own (a run refused by a lock writes none, and the planted one would
// stand): a report is read only when it is not the file that was there before the run, only as a regular file of
// bounded size, and only its verdict, one of the suite's words, or its first error, escaped; anything else is
// `none` (or nothing), and the exit code decides the job either way.
//
//   verdict.js identity <conformance.json>          what the file is before the run
//   verdict.js read <conformance.json> <identity>    the verdict of the report, or none
//   verdict.js reason <conformance.json> <identity>  why the run refused its configuration, as Markdown, or nothing
const { lstatSync, readFileSync } = require('node:fs');

/** The verdicts of reporters/conformance-result.ts, as action.yml documents the output. */
const VERDICTS = ['pass', 'fail', 'error', 'partial', 'incomplete'];

/** A report larger than this is none of a run's (a fleet of thousands of targets writes a few megabytes). */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/** The most characters of a reason shown in the job summary. */
const MAX_REASON_CHARS = 1000;

/**
 * What a file is: its device, inode, change time in nanoseconds and size, none when it is no regular file. The change
 * time is the system's, which no one can set to a time of their choosing, as they can the modification time.
 * @param {string} file
 */
function identity(file) {
  try {
    const stat = lstatSync(file, { throwIfNoEntry: false, bigint: true });
    return stat?.isFile() ? [stat.dev, stat.ino, stat.ctimeNs, stat.size].join(':') : 'none';
  } catch {
    // A path that cannot be looked at (its folder a file, or unreadable): nothing is known of it, then or later.
    return 'unknown';
  }
}

/**
 * The report this run wrote, or undefined: none there, the file that was there before, or one that cannot be read.
 * @param {string} file
 * @param {string | undefined} before its identity before the run
 * @returns {{ verdict?: unknown, errors?: unknown } | undefined}
 */
function written(file, before) {
  const now = identity(file);
  if (!before || before === 'unknown' || now === 'none' || now === 'unknown' || now === before) return undefined;
  if (lstatSync(file).size > MAX_REPORT_BYTES) return undefined;
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    return report !== null && typeof report === 'object' ? report : undefined;
  } catch {
    return undefined;
  }
}

/** @param {{ verdict?: unknown } | undefined} report */
const verdictOf = (report) => (VERDICTS.includes(/** @type {string} */ (report?.verdict)) ? /** @type {string} */ (report?.verdict) : 'none');

/**
 * The first error of a refused configuration's report, on one line of Markdown: characters that Markdown or HTML would
 * read as markup are escaped, controls dropped, the length bounded. The suite never writes a secret in it.
 * @param {{ verdict?: unknown, errors?: unknown } | undefined} report
 */
function reasonOf(report) {
  const first = Array.isArray(report?.errors) ? report.errors[0] : undefined;
  if (report?.verdict !== 'error' || typeof first !== 'string' || !first.startsWith('configuration error: ')) return '';
  const line = first
    .slice('configuration error: '.length, 'configuration error: '.length + MAX_REASON_CHARS)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
  return line.replace(/[\\`*_{}[\]()#+\-.!|<>&~]/g, (c) => `\\${c}`);
}

const [mode, file, before] = process.argv.slice(2);
if (mode === 'identity') process.stdout.write(`${identity(file)}\n`);
else if (mode === 'reason') process.stdout.write(reasonOf(written(file, before)));
else process.stdout.write(`${verdictOf(written(file, before))}\n`);
