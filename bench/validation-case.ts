// One measurement of the validation benchmark, in a process of its own so that compile time is a cold
// compile and peak memory belongs to this list alone. Prints one JSON line on stdout.
//   validation-case.ts <projects> none|one-percent|every checks   parse, lossless read, schema clauses, Ajv alone, date-times
//   validation-case.ts <projects> none|one-percent|every walk     the walk beside the contract (counts, unknown and deprecated fields)
import type { Exchange } from '../harness/transport/exchange.ts';
import { readJsonBody } from '../harness/json/json-body.ts';
import type { JsonBody } from '../harness/json/json-readings.ts';
import { isRfc3339DateTime } from '../harness/contracts/rfc3339.ts';
import { schemaFindings } from '../harness/judging/violations.ts';
import { schemaTree } from '../harness/judging/schema-tree.ts';
import { walkBody } from '../harness/judging/schema-walk.ts';
import { validators, type SchemaName } from '../harness/contracts/validator.ts';
import { dateTimesOf, projectsList, type BrokenShare, type ProjectsList } from './data.ts';
import { peakRssMiB, timeCall } from './measure.ts';

export interface ListFacts {
  size: number;
  broken: number;
  bytes: number;
  /** Cold compile of every contract the suite uses. */
  compileMs: number;
  parseMs: number;
  peakRssMiB: number;
}

export interface ChecksResult extends ListFacts {
  /** readJsonBody: JSON.parse and the scan for what it would lose (number literals, repeated keys), as the judge reads a body. */
  readMs: number;
  /** schemaFindings('projects') of a body read: Ajv, the walk, and the sorting of errors into clauses, as the judge runs it. */
  checksMs: number;
  /** validators().validate('projects') alone. */
  ajvMs: number;
  dateTimeMs: number;
  dateTimes: number;
  violationsKept: number;
  violationsCut: number;
  /** Broken entries on which the schema reported an error. */
  brokenFound: number;
  /** Violations no breakage explains, or breakages reported under another clause. */
  unexpected: number;
  /** How much the validation raised the process's peak above what the text and the parsed list took. */
  validationRssMiB: number;
}

export interface WalkResult extends ListFacts {
  /** walkBody beside the projects contract, made once per body for the counts and both field observations. */
  walkMs: number;
}

const SCHEMAS: SchemaName[] = ['public-signup-token', 'user', 'role', 'projects', 'project', 'owner', 'error'];

/** The body as the judge reads it. */
function asRead(text: string): JsonBody {
  const read = readJsonBody(text);
  if (!read.ok) throw new Error(read.reason);
  return read.body;
}

const exchange: Exchange = {
  request: { method: 'GET', path: '/api/admin/projects', credential: 'admin' },
  url: 'http://127.0.0.1/api/admin/projects',
  startedAt: 0,
  durationMs: 0,
  bodyBytes: 0,
};

// The validators compile each schema on first use; calling every one of them is the whole compile a
// suite process pays.
function compileAll(): number {
  const start = performance.now();
  for (const name of SCHEMAS) validators().validate(name, null);
  return performance.now() - start;
}

/**
 * Whether each breakage was found where it was made: an error on every broken entry and on no other, and
 * under each clause as many violations (kept or cut) as breakages data.ts made for it.
 */
function tallyFindings(body: unknown, text: string, broken: ProjectsList['broken']) {
  const expected = new Map<string, number>();
  for (const b of broken) expected.set(b.clause, (expected.get(b.clause) ?? 0) + 1);
  let kept = 0;
  let cut = 0;
  let misfiled = 0;
  for (const [clause, check] of schemaFindings('projects', [{ exchange, body: asRead(text) }])) {
    kept += check.violations.length;
    cut += check.violationsCut;
    misfiled += Math.abs(check.violationCount - (expected.get(clause) ?? 0));
  }
  const positions = new Set(broken.map((b) => b.position));
  const hit = new Set(
    validators()
      .validate('projects', body)
      .map((e) => Number(e.instancePath.split('/')[2])),
  );
  const found = [...positions].filter((p) => hit.has(p)).length;
  return { kept, cut, brokenFound: found, unexpected: misfiled + [...hit].filter((p) => !positions.has(p)).length };
}

/** The list as the suite holds it: text as received, parsed once; parse time measured on the same text. */
function prepare(size: number, broken: BrokenShare) {
  const compileMs = compileAll();
  const list = projectsList(size, broken);
  const text = JSON.stringify(list.body);
  const parse = timeCall(() => JSON.parse(text));
  const body: unknown = JSON.parse(text);
  const facts = { size, broken: list.broken.length, bytes: Buffer.byteLength(text), compileMs, parseMs: parse.medianMs };
  return { list, body, text, facts };
}

function measureChecks(size: number, broken: BrokenShare): ChecksResult {
  const { list, body, text, facts } = prepare(size, broken);
  const readTime = timeCall(() => readJsonBody(text));
  const read = asRead(text);
  const rssBeforeValidation = peakRssMiB();
  // A body's walk is kept per body object; a copy for each call makes every call walk, as the judge's one call does.
  const checks = timeCall(() => schemaFindings('projects', [{ exchange, body: { ...read } }]));
  const ajv = timeCall(() => validators().validate('projects', body));
  const dates = dateTimesOf(body as ProjectsList['body']);
  const dateTime = timeCall(() => dates.filter(isRfc3339DateTime).length);
  const findings = tallyFindings(body, text, list.broken);
  return {
    ...facts,
    readMs: readTime.medianMs,
    checksMs: checks.medianMs,
    ajvMs: ajv.medianMs,
    dateTimeMs: dateTime.medianMs,
    dateTimes: dates.length,
    violationsKept: findings.kept,
    violationsCut: findings.cut,
    brokenFound: findings.brokenFound,
    unexpected: findings.unexpected,
    peakRssMiB: peakRssMiB(),
    validationRssMiB: Math.max(0, peakRssMiB() - rssBeforeValidation),
  };
}

function measureWalk(size: number, broken: BrokenShare): WalkResult {
  const { body, facts } = prepare(size, broken);
  const walk = timeCall(() => walkBody(schemaTree('projects'), body));
  return { ...facts, walkMs: walk.medianMs, peakRssMiB: peakRssMiB() };
}

const SHARES: BrokenShare[] = ['none', 'one-percent', 'every'];
const [size, share, what] = process.argv.slice(2);
if (!/^\d+$/.test(size ?? '') || !SHARES.includes(share as BrokenShare) || !['checks', 'walk'].includes(what)) {
  process.stderr.write(`usage: validation-case.ts <projects> ${SHARES.join('|')} checks|walk\n`);
  process.exit(2);
}
const measure = what === 'checks' ? measureChecks : measureWalk;
process.stdout.write(`${JSON.stringify(measure(Number(size), share as BrokenShare))}\n`);
