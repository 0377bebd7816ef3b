// `npm run bench`: the cost of judging a projects list against the cost of parsing it (issue 7, items 1
// and 2). Each list is measured in a fresh child process (bench/validation-case.ts) so that schema
// compilation is cold and peak memory is that list's own.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MAX_VIOLATIONS_KEPT } from '../harness/verdict.ts';
import { formatMs, loadAverage, machine, markdownTable, median } from './measure.ts';
import type { BrokenShare } from './data.ts';
import type { ChecksResult, ObserveResult } from './validation-case.ts';

const SIZES = [10, 1_000, 10_000, 100_000];
/** Lists with every entry broken, to show how the cost grows with the number of errors. */
const EVERY_BROKEN_SIZES = [10_000, 20_000];
const CASE_SCRIPT = fileURLToPath(new URL('./validation-case.ts', import.meta.url));

/** Issue 7, item 2: the suite's validation costs at most half of JSON.parse of the same body. */
const GOAL_RATIO = 0.5;

// The checks of a 100k list take a few seconds a measurement; the observations of a large list can take
// far longer, so they get a deadline, and once one size takes longer than OBSERVE_SKIP_ABOVE_MS the larger
// ones are not tried: the table says which.
const CHECKS_DEADLINE_MS = 60_000;
const OBSERVE_DEADLINE_MS = 15_000;
const OBSERVE_SKIP_ABOVE_MS = 2_000;

type Outcome<T> = { ok: true; result: T } | { ok: false; reason: string };

function runCase<T>(args: string[], deadlineMs: number): Promise<Outcome<T>> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CASE_SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, deadlineMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve({ ok: false, reason: `> ${deadlineMs / 1000} s (stopped)` });
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
    r.size.toLocaleString('en'), String(r.broken), mib(r.bytes), formatMs(r.parseMs), formatMs(r.checksMs), ratio(r.checksMs, r.parseMs),
    formatMs(r.ajvMs), `${formatMs(r.dateTimeMs)} (${r.dateTimes.toLocaleString('en')})`, ratio(r.dateTimeMs, r.parseMs),
    `${r.violationsKept} / ${r.violationsCut}`, r.broken === 0 ? '—' : `${r.brokenFound}/${r.broken}${r.unexpected ? `, ${r.unexpected} unexpected` : ''}`,
    r.peakRssMiB.toFixed(0), r.validationRssMiB.toFixed(0),
  ];
}

const CHECKS_HEADER = [
  'projects', 'broken', 'body MiB', 'JSON.parse ms', 'validation ms', 'validation/parse', 'Ajv alone ms', 'date-times ms (values)', 'date-times/parse',
  'violations kept / cut', 'broken found', 'peak RSS MiB', '+RSS validating',
];

type Observed = { size: number; outcome: Outcome<ObserveResult> };

function observe(size: number, previous: Observed | undefined): Promise<Outcome<ObserveResult>> {
  const before = previous?.outcome;
  if (before && !before.ok) return Promise.resolve(before.reason.startsWith('not run') ? before : { ok: false, reason: `not run (${previous!.size.toLocaleString('en')} took ${before.reason})` });
  if (before && before.result.observeMs > OBSERVE_SKIP_ABOVE_MS) {
    return Promise.resolve({ ok: false, reason: `not run (${previous!.size.toLocaleString('en')} took ${(before.result.observeMs / 1000).toFixed(1)} s)` });
  }
  return runCase<ObserveResult>([String(size), 'none', 'observe'], OBSERVE_DEADLINE_MS);
}

async function main(): Promise<void> {
  const started = Date.now();
  process.stdout.write(`machine: ${machine()}; ${loadAverage()}\n`);
  const checks: ChecksResult[] = [];
  const observed: Observed[] = [];
  const measureChecks = async (size: number, share: BrokenShare) => {
    const outcome = await runCase<ChecksResult>([String(size), share, 'checks'], CHECKS_DEADLINE_MS);
    if (!outcome.ok) throw new Error(`the list of ${size} projects (${share} broken) could not be measured: ${outcome.reason}`);
    checks.push(outcome.result);
    process.stdout.write('.');
  };
  for (const size of SIZES) {
    await measureChecks(size, 'none');
    await measureChecks(size, 'one-percent');
    // Every project of a realistic list carries deprecated fields, so a valid list is the observations' real load.
    observed.push({ size, outcome: await observe(size, observed.at(-1)) });
    process.stdout.write('.');
  }
  for (const size of EVERY_BROKEN_SIZES) await measureChecks(size, 'every');
  process.stdout.write('\n\n');
  printReport(checks, observed);
  process.stdout.write(`\nbench took ${((Date.now() - started) / 1000).toFixed(0)} s; ${loadAverage()}\n`);
}

function printReport(checks: ChecksResult[], observed: Observed[]): void {
  process.stdout.write(`Validation of a projects list (schemaChecks('projects'), all errors collected, at most ${MAX_VIOLATIONS_KEPT} violations kept per clause); medians\n\n`);
  process.stdout.write(`${markdownTable(CHECKS_HEADER, checks.map(checksRow))}\n\n`);
  const observeRows = observed.map(({ size, outcome }) => {
    const parse = checks.find((c) => c.size === size)!.parseMs;
    return outcome.ok
      ? [size.toLocaleString('en'), formatMs(parse), formatMs(outcome.result.observeMs), ratio(outcome.result.observeMs, parse), outcome.result.peakRssMiB.toFixed(0)]
      : [size.toLocaleString('en'), formatMs(parse), outcome.reason, '—', '—'];
  });
  process.stdout.write(`Observations of a valid list (observeFields('projects'): unknown and deprecated fields); medians\n\n`);
  process.stdout.write(`${markdownTable(['projects', 'JSON.parse ms', 'observe ms', 'observe/parse', 'peak RSS MiB'], observeRows)}\n\n`);
  const compile = checks.map((c) => c.compileMs);
  process.stdout.write(`schema compile, cold, all 7 schemas and their observer variants: median ${formatMs(median(compile))} ms (${formatMs(Math.min(...compile))}–${formatMs(Math.max(...compile))} over ${compile.length} processes)\n`);
  const every = checks.filter((c) => c.broken === c.size);
  if (every.length === 2) {
    const [a, b] = every;
    process.stdout.write(`every entry broken: ${b.size / a.size}× the entries take ${(b.checksMs / a.checksMs).toFixed(1)}× the validation time (${formatMs(a.checksMs)} → ${formatMs(b.checksMs)} ms) and ${(b.parseMs / a.parseMs).toFixed(1)}× the parse time\n`);
  }
  const over = checks.filter((c) => c.broken < c.size && c.checksMs > GOAL_RATIO * c.parseMs);
  const missed = checks.filter((c) => c.brokenFound < c.broken || c.unexpected > 0);
  process.stdout.write(`goal validation ≤ ${GOAL_RATIO}× JSON.parse (valid and 1% broken lists): ${over.length === 0 ? 'met at every size' : `not met for ${over.map(caseName).join(', ')}`}\n`);
  process.stdout.write(`goal an error for every broken entry, under its clause: ${missed.length === 0 ? 'met at every size' : `not met for ${missed.map(caseName).join(', ')}`}\n`);
}

await main();
