// Figure 4 of issue 15: `npm test`, everything the project checks about itself, timed as a user runs it.
import { NPM_TEST_MS, type Figure } from './figures.ts';
import { markdownTable } from './measure.ts';
import { timeCommand } from './run.ts';

const DEADLINE_MS = 600_000;
// The whole output is kept, so that the list reporter's line for every test can be read back.
const OUTPUT_KEPT = 4_000_000;
const SLOWEST_SHOWN = 8;

const NAME = '`npm test` wall time';
const GOAL = `≤ ${NPM_TEST_MS / 1000} s on a quiet machine`;

export const NPM_TEST_NOT_RUN: Figure = { name: NAME, measured: 'not run (add -- --npm-test)', goal: GOAL };

// A line of the list reporter: "  ✓  12 self-tests/suite/x.test.ts:4:1 › title (3.2s)".
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

export async function npmTest(): Promise<{ figure: Figure; slowest: string }> {
  process.stdout.write('npm test ...\n');
  const run = await timeCommand('npm', ['test'], {}, DEADLINE_MS, OUTPUT_KEPT);
  const outcome = run.timedOut ? 'killed at its deadline' : `exit ${run.exitCode}`;
  if (run.exitCode !== 0) process.stdout.write(`npm test did not pass; its output ends:\n${run.output.slice(-3000)}\n`);
  const met = run.exitCode === 0 ? run.wallMs <= NPM_TEST_MS : false;
  return { figure: { name: NAME, measured: `${(run.wallMs / 1000).toFixed(0)} s (${outcome})`, goal: GOAL, met }, slowest: slowestTests(run.output) };
}
