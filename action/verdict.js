#!/usr/bin/env node
// @ts-check
// The verdict of the report a run of the action wrote, for the step's outputs. The report folder lies in the
// workspace, where whoever controls the checked-out tree may have left a conformance.json of their own (a run
// refused by a lock writes none, and the planted one would stand): a report is read only when it is not the file
// that was there before the run, only as a regular file of bounded size, and only its verdict, one of the suite's
// words; anything else is `none`, and the exit code decides the job either way.
//
//   verdict.js identity <conformance.json>          what the file is before the run
//   verdict.js read <conformance.json> <identity>    the verdict of the report, or none
const { lstatSync, readFileSync } = require('node:fs');

/** The verdicts of reporters/conformance-result.ts, as action.yml documents the output. */
const VERDICTS = ['pass', 'fail', 'error', 'partial', 'incomplete'];

/** A report larger than this is none of a run's (a fleet of thousands of targets writes a few megabytes). */
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

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
 * @param {string} file
 * @param {string | undefined} before its identity before the run
 */
function verdict(file, before) {
  const now = identity(file);
  if (!before || before === 'unknown' || now === 'none' || now === 'unknown' || now === before) return 'none';
  if (lstatSync(file).size > MAX_REPORT_BYTES) return 'none';
  try {
    const read = JSON.parse(readFileSync(file, 'utf8'))?.verdict;
    return VERDICTS.includes(read) ? read : 'none';
  } catch {
    return 'none';
  }
}

const [mode, file, before] = process.argv.slice(2);
process.stdout.write(`${mode === 'identity' ? identity(file) : verdict(file, before)}\n`);
