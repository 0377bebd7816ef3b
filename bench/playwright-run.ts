// One timed run of the Playwright CLI, as `npm run conformance` runs it (or a bare project, with its
// config), with the phase reporter added; what it wrote is read back and the folder removed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PHASES_FILE_VARIABLE, type Phases } from './phase-reporter.ts';
import { PLAYWRIGHT_CLI, temporaryFolder, timeCommand, type Timed } from './run.ts';

export interface RunTiming extends Timed {
  /** When the CLI was spawned (epoch ms), the start of the phases. */
  spawnedAt: number;
  phases?: Phases;
  /** conformance.json's verdict and clause counts, when the run wrote it. */
  verdict?: string;
  summary?: Record<string, number>;
}

export interface RunSpec {
  env?: Record<string, string>;
  args?: string[];
  deadlineMs: number;
}

function readJson(file: string): unknown {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Only the fields a table shows, each checked before use: a run cut short may leave anything behind.
function reportFacts(report: unknown): Pick<RunTiming, 'verdict' | 'summary'> {
  if (!isRecord(report)) return {};
  const summary = isRecord(report.summary)
    ? Object.fromEntries(Object.entries(report.summary).filter((e): e is [string, number] => typeof e[1] === 'number'))
    : undefined;
  return { verdict: typeof report.verdict === 'string' ? report.verdict : undefined, summary };
}

function phasesOf(value: unknown): Phases | undefined {
  return isRecord(value) && typeof value.configLoaded === 'number' && typeof value.begin === 'number' ? (value as unknown as Phases) : undefined;
}

export async function timePlaywright({ env = {}, args = [], deadlineMs }: RunSpec): Promise<RunTiming> {
  const folder = temporaryFolder('conformance-bench-');
  const phasesFile = path.join(folder.path, 'phases.json');
  const reportDir = path.join(folder.path, 'report');
  try {
    // Playwright's output folder goes with this one; TMPDIR stays, so that its transform cache stays warm as a user's is.
    const output = ['--output', path.join(folder.path, 'test-results')];
    const cli = [PLAYWRIGHT_CLI, 'test', '--add-reporter', './bench/phase-reporter.ts', ...output, ...args];
    const spawnedAt = Date.now();
    const runEnv = { CONFORMANCE_REPORT_DIR: reportDir, ...env, [PHASES_FILE_VARIABLE]: phasesFile };
    const timed = await timeCommand(process.execPath, cli, runEnv, deadlineMs);
    return { ...timed, spawnedAt, phases: phasesOf(readJson(phasesFile)), ...reportFacts(readJson(path.join(reportDir, 'conformance.json'))) };
  } finally {
    folder.remove();
  }
}
