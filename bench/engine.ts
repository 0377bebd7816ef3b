// Issue 36's figures: a run of the engine in this process (no Playwright, no child process) against the embedded
// reference target, and the size of the carrier that brings the engine's verdicts to the command line and Playwright.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runConformance } from '../run/engine.ts';
import { CARRIER_LINES, type Figure } from './figures.ts';
import { formatMs, median } from './measure.ts';
import { temporaryFolder } from './run.ts';

const ROUNDS = 7;
const ROOT = path.join(__dirname, '..');

/** The command line's and Playwright's share of a run: the command, the Playwright configuration and tests/. */
const CARRIER = ['bin', 'playwright.config.ts', 'tests'];

const linesOf = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;

function filesUnder(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!readdirSync(path.dirname(full)).includes(path.basename(full))) return [];
  try {
    return readdirSync(full).flatMap((name) => filesUnder(path.join(entry, name)));
  } catch {
    return /\.(ts|js)$/.test(entry) ? [full] : [];
  }
}

/** The carrier's lines, against its goal; the engine's (run/) beside them, for the record. */
export function carrierFigure(): Figure {
  const count = (entries: string[]) => entries.flatMap(filesUnder).reduce((sum, file) => sum + linesOf(file), 0);
  const carrier = count(CARRIER);
  return {
    name: 'the carrier: bin/, playwright.config.ts, tests/',
    measured: `${carrier} lines (the engine, run/, ${count(['run'])} more)`,
    goal: `≤ ${CARRIER_LINES} lines`,
    met: carrier <= CARRIER_LINES,
  };
}

/** runConformance against the embedded reference target, in this process: the median of a few runs after a first. */
export async function inProcessFigure(): Promise<Figure> {
  const folder = temporaryFolder('bench-engine-');
  try {
    const times: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const started = performance.now();
      const result = await runConformance({ embedded: true, reportDir: path.join(folder.path, String(round)) });
      if (result.verdict !== 'pass') return { name: 'runConformance in process', measured: `no pass (${result.verdict})`, goal: 'reported' };
      // The first run loads and compiles what the others reuse: shown apart.
      if (round > 0) times.push(performance.now() - started);
      else process.stdout.write(`runConformance, first run in this process: ${formatMs(performance.now() - started)} ms\n`);
    }
    return { name: 'runConformance in process, embedded target (median of later runs)', measured: `${formatMs(median(times))} ms`, goal: 'reported' };
  } finally {
    folder.remove();
  }
}
