// Figure 4 of issue 15: `npm test`, everything the project checks about itself, timed as a user runs it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RUN_LOG_VARIABLE } from '../self-tests/support/run-suite.ts';
import { NPM_TEST_MS, PROCESS_RUNS, type Figure } from './figures.ts';
import { markdownTable } from './measure.ts';
import { temporaryFolder, timeCommand } from './run.ts';

const DEADLINE_MS = 600_000;
// The whole output is kept, so that the list reporter's line for every test can be read back.
const OUTPUT_KEPT = 4_000_000;
const SLOWEST_SHOWN = 8;

const NAME = '`npm test` wall time';
const GOAL = `≤ ${NPM_TEST_MS / 1000} s on a quiet machine`;

export const NPM_TEST_NOT_RUN: Figure = { name: NAME, measured: 'not run (add -- --npm-test)', goal: GOAL };

const RUNS_NAME = 'process runs of the command in `npm test`';
export const RUNS_NOT_COUNTED: Figure = { name: RUNS_NAME, measured: 'not run (add -- --npm-test)', goal: `≤ ${PROCESS_RUNS}` };

/** How many runs of the command, as processes, the self-tests noted. */
function runsNoted(log: string): number | undefined {
  try {
    return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return undefined;
  }
}

// A line of the list reporter: "  ✓  12 self-tests/suite/diff.test.ts:4:1 › title (3.2s)".
const TEST_LINE = /^\s*[✓✘-]\s+\d+\s+(.+?)\s+\((\d+(?:\.\d+)?)(ms|s|m)\)\s*$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

function slowestTests(output: string): string {
  const tests = output.split('\n').flatMap((line) => {
    const match = TEST_LINE.exec(line);
    return match ? [{ title: match[1], ms: Number(match[2]) * UNIT_MS[match[3]] }] : [];
  });
  const total = tests.reduce((sum, t) => sum + t.ms, 0);
  const rows = tests
    .sort((a, b) => b.ms - a.ms)
    .slice(0, SLOWEST_SHOWN)
    .map((t) => [t.title.slice(0, 110), (t.ms / 1000).toFixed(1)]);
  return `${markdownTable(['test', 's'], rows)}\n\n${tests.length} tests, ${(total / 1000).toFixed(0)} s of test time in all`;
}

/** The CPU time of this process's children that have ended, theirs included (Linux's /proc), in seconds; undefined elsewhere. */
function childrenCpuSeconds(): number | undefined {
  try {
    // The fields after the command's name, which may hold spaces: cutime and cstime are the 14th and 15th, in ticks of 1/100 s.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** What the self-tests' time is made of: the runs of the command they noted (self-tests/support/run-suite.ts). */
function runsOf(log: string, cpuSeconds: number | undefined): string {
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return 'no run of the command was noted';
  }
  const runs = text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { ms: number; exitCode: number | null; failed: number });
  const judged = runs.filter((r) => r.exitCode === 0 || r.exitCode === 1);
  const sum = (rs: typeof runs, f: (r: (typeof runs)[0]) => number) => rs.reduce((total, r) => total + f(r), 0);
  const cpu = cpuSeconds === undefined ? '' : `; ${cpuSeconds.toFixed(0)} s of CPU in all`;
  return (
    `${runs.length} runs of the command, ${(sum(runs, (r) => r.ms) / 1000).toFixed(0)} s of their time: ${judged.length} exiting 0 or 1, a verdict or a verify, merge or diff that ran ` +
    `(${(sum(judged, (r) => r.ms) / 1000).toFixed(0)} s), the rest refused or without a verdict; ${sum(runs, (r) => r.failed)} failing tests among them, each a restart of Playwright's worker${cpu}`
  );
}

export async function npmTest(): Promise<{ figure: Figure; runs: Figure; slowest: string }> {
  process.stdout.write('npm test ...\n');
  const folder = temporaryFolder('bench-npm-test-');
  const log = path.join(folder.path, 'runs.jsonl');
  const cpuBefore = childrenCpuSeconds();
  const run = await timeCommand('npm', ['test'], { [RUN_LOG_VARIABLE]: log }, DEADLINE_MS, OUTPUT_KEPT);
  const cpuAfter = childrenCpuSeconds();
  const made = runsOf(log, cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore);
  const noted = run.exitCode === 0 ? (runsNoted(log) ?? 0) : undefined;
  folder.remove();
  const outcome = run.timedOut ? 'killed at its deadline' : `exit ${run.exitCode}`;
  if (run.exitCode !== 0) process.stdout.write(`npm test did not pass; its output ends:\n${run.output.slice(-3000)}\n`);
  const met = run.exitCode === 0 ? run.wallMs <= NPM_TEST_MS : false;
  return {
    figure: { name: NAME, measured: `${(run.wallMs / 1000).toFixed(0)} s (${outcome})`, goal: GOAL, met },
    runs: {
      name: RUNS_NAME,
      measured: noted === undefined ? `not counted (${outcome})` : String(noted),
      goal: `≤ ${PROCESS_RUNS}`,
      met: noted === undefined ? undefined : noted <= PROCESS_RUNS,
    },
    slowest: `${slowestTests(run.output)}\n\n${made}`,
  };
}
