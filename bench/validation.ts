// `npm run bench`: what judging a projects list costs against parsing it (issue 7, items 1 and 2): the
// lossless read, the schema clauses and the walk beside the contract, as a run's judge runs them.
// Each list is measured in a fresh child process (bench/validation-case.ts) so that schema compilation
// is cold and peak memory is that list's own.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { MAX_VIOLATIONS_KEPT } from '../harness/judging/violations.ts';
import { closingTable, type Figure } from './figures.ts';
import { formatMs, loadAverage, machine, markdownTable, median } from './measure.ts';
import type { BrokenShare } from './data.ts';
import type { ChecksResult, WalkResult } from './validation-case.ts';

const SIZES = [10, 1_000, 10_000, 100_000];
/** Lists with every entry broken, to show how the cost grows with the number of errors. */
const EVERY_BROKEN_SIZES = [10_000, 20_000];
const CASE_SCRIPT = path.join(__dirname, './validation-case.ts');

/** Issue 7, item 2: the suite's validation costs at most half of JSON.parse of the same body. */
const GOAL_RATIO = 0.5;

// A measurement of the largest list takes a few seconds; one that takes far longer has gone wrong.
const CASE_DEADLINE_MS = 60_000;

type Outcome<T> = { ok: true; result: T } | { ok: false; reason: string };

function runCase<T>(args: string[]): Promise<Outcome<T>> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CASE_SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, CASE_DEADLINE_MS);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve({ ok: false, reason: `> ${CASE_DEADLINE_MS / 1000} s (stopped)` });
      else if (code !== 0) resolve({ ok: false, reason: `failed (exit ${code}): ${stderr.trim().split('\n').at(-1)}` });
      else resolve({ ok: true, result: JSON.parse(stdout.trim().split('\n').at(-1)!) as T });
    });
  });
}

const caseName = (c: ChecksResult) => `${c.size.toLocaleString('en')} ${c.broken === 0 ? 'valid' : c.broken === c.size ? 'all broken' : 'broken'}`;
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 3 : 1);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

function checksRow(r: ChecksResult): string[] {
  return [
    r.size.toLocaleString('en'),
    String(r.broken),
    mib(r.bytes),
    formatMs(r.parseMs),
    formatMs(r.readMs),
    ratio(r.readMs, r.parseMs),
    formatMs(r.checksMs),
    ratio(r.checksMs, r.parseMs),
    formatMs(r.ajvMs),
    `${formatMs(r.dateTimeMs)} (${r.dateTimes.toLocaleString('en')})`,
    ratio(r.dateTimeMs, r.parseMs),
    `${r.violationsKept} / ${r.violationsCut}`,
    r.broken === 0 ? '—' : `${r.brokenFound}/${r.broken}${r.unexpected ? `, ${r.unexpected} unexpected` : ''}`,
    r.peakRssMiB.toFixed(0),
    r.validationRssMiB.toFixed(0),
  ];
}

const CHECKS_HEADER = [
  'projects',
  'broken',
  'body MiB',
  'JSON.parse ms',
  'read ms',
  'read/parse',
  'validation ms',
  'validation/parse',
  'Ajv alone ms',
  'date-times ms (values)',
  'date-times/parse',
  'violations kept / cut',
  'broken found',
  'peak RSS MiB',
  '+RSS validating',
];

async function main(): Promise<void> {
  const started = Date.now();
  process.stdout.write(`machine: ${machine()}; ${loadAverage()}\n`);
  const checks: ChecksResult[] = [];
  const walks: { size: number; outcome: Outcome<WalkResult> }[] = [];
  const measureChecks = async (size: number, share: BrokenShare) => {
    const outcome = await runCase<ChecksResult>([String(size), share, 'checks']);
    if (!outcome.ok) throw new Error(`the list of ${size} projects (${share} broken) could not be measured: ${outcome.reason}`);
    checks.push(outcome.result);
    process.stdout.write('.');
  };
  for (const size of SIZES) {
    await measureChecks(size, 'none');
    await measureChecks(size, 'one-percent');
    walks.push({ size, outcome: await runCase<WalkResult>([String(size), 'none', 'walk']) });
    process.stdout.write('.');
  }
  for (const size of EVERY_BROKEN_SIZES) await measureChecks(size, 'every');
  process.stdout.write('\n\n');
  printReport(checks, walks);
  process.stdout.write(`\nmachine: ${machine()}\nbench took ${((Date.now() - started) / 1000).toFixed(0)} s; ${loadAverage()}\n`);
}

function walkRows(checks: ChecksResult[], walks: { size: number; outcome: Outcome<WalkResult> }[]): string[][] {
  return walks.map(({ size, outcome }) => {
    const parse = checks.find((c) => c.size === size)!.parseMs;
    return outcome.ok
      ? [size.toLocaleString('en'), formatMs(parse), formatMs(outcome.result.walkMs), ratio(outcome.result.walkMs, parse), outcome.result.peakRssMiB.toFixed(0)]
      : [size.toLocaleString('en'), formatMs(parse), outcome.reason, '—', '—'];
  });
}

function goals(checks: ChecksResult[]): Figure[] {
  const measuredLists = checks.filter((c) => c.broken < c.size);
  const worst = measuredLists.reduce((a, b) => (b.checksMs / b.parseMs > a.checksMs / a.parseMs ? b : a));
  const over = measuredLists.filter((c) => c.checksMs > GOAL_RATIO * c.parseMs);
  const missed = checks.filter((c) => c.brokenFound < c.broken || c.unexpected > 0);
  return [
    {
      name: 'validation ÷ JSON.parse, valid and 1% broken lists',
      measured: `highest ${ratio(worst.checksMs, worst.parseMs)} (${caseName(worst)})${over.length ? `; over for ${over.map(caseName).join(', ')}` : ''}`,
      goal: `≤ ${GOAL_RATIO}× at every size`,
      met: over.length === 0,
    },
    {
      name: 'an error for every broken entry, under its clause',
      measured: missed.length === 0 ? 'every size' : `missed for ${missed.map(caseName).join(', ')}`,
      goal: 'every size',
      met: missed.length === 0,
    },
  ];
}

function printReport(checks: ChecksResult[], walks: { size: number; outcome: Outcome<WalkResult> }[]): void {
  process.stdout.write(
    `Judging a projects list: readJsonBody, then schemaFindings('projects') (Ajv, the walk, errors sorted into clauses; at most ${MAX_VIOLATIONS_KEPT} violations kept per clause); medians\n\n`,
  );
  process.stdout.write(`${markdownTable(CHECKS_HEADER, checks.map(checksRow))}\n\n`);
  process.stdout.write(
    'The walk beside the contract alone (walkBody: what each clause looked at, unknown and deprecated fields) over a valid list; medians\n\n',
  );
  process.stdout.write(`${markdownTable(['projects', 'JSON.parse ms', 'walk ms', 'walk/parse', 'peak RSS MiB'], walkRows(checks, walks))}\n\n`);
  const compile = checks.map((c) => c.compileMs);
  process.stdout.write(
    `schema compile, cold, all 7 contracts: median ${formatMs(median(compile))} ms (${formatMs(Math.min(...compile))}–${formatMs(Math.max(...compile))} over ${compile.length} processes)\n`,
  );
  const every = checks.filter((c) => c.broken === c.size);
  if (every.length === 2) {
    const [a, b] = every;
    process.stdout.write(
      `every entry broken: ${b.size / a.size}× the entries take ${(b.checksMs / a.checksMs).toFixed(1)}× the validation time (${formatMs(a.checksMs)} → ${formatMs(b.checksMs)} ms) and ${(b.parseMs / a.parseMs).toFixed(1)}× the parse time\n`,
    );
  }
  process.stdout.write(`\nGoals (issue 7)\n\n${closingTable(goals(checks))}\n`);
}

void main();
