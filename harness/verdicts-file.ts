import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Clause } from './catalogue.ts';
import type { TargetVerdicts } from './verdicts.ts';

// What global setup hands the tests, in a private temporary folder: the catalogue it read, at once, and every
// target's verdicts, secrets replaced, once judged. The judge runs while Playwright starts the first worker
// (harness/judging.ts), so a test may ask for its verdict before there is one: it waits for the file.
// Workers read these files at every start (one per failing clause), so they are all they read: no YAML, no schemas.

/** Where global setup leaves the catalogue and the verdicts for the workers: a folder, inherited through the environment. */
export const VERDICTS_VARIABLE = 'ADMIN_API_CONFORMANCE_VERDICTS';

const CATALOGUE_FILE = 'catalogue.json';
const VERDICTS_FILE = 'verdicts.json';

/** The judge's word on every target, by Playwright project name ('' for a single target). */
export type JudgedTargets = Record<string, TargetVerdicts>;

/** Every target's verdicts, or why the run stopped without any, redacted (the teardown throws the whole error). */
export type RunVerdicts = { targets: JudgedTargets } | { stopped: string };

/** The annotation of a test the run's stop left unjudged: the reporter takes the run's error as its reason. */
export const STOPPED_ANNOTATION = 'run-stopped';

export interface VerdictsFolder {
  path: string;
  /** Leaves the verdicts, whole or not at all: a test never reads half a file. */
  publish(verdicts: RunVerdicts): void;
  remove(): void;
}

/** Makes the run's folder, readable by this user alone, and leaves the catalogue in it. Nothing in it is a secret. */
export function openVerdictsFolder(catalogue: Clause[]): VerdictsFolder {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  writeFileSync(path.join(dir, CATALOGUE_FILE), JSON.stringify(catalogue), { mode: 0o600 });
  return {
    path: dir,
    publish(verdicts) {
      const partial = path.join(dir, `${VERDICTS_FILE}.partial`);
      writeFileSync(partial, JSON.stringify(verdicts), { mode: 0o600 });
      renameSync(partial, path.join(dir, VERDICTS_FILE));
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

let catalogue: { dir: string; clauses: Clause[] } | undefined;

/** The catalogue global setup of this run read, when it has run (not in `--list`, say). */
export function inheritedCatalogue(env: Record<string, string | undefined> = process.env): Clause[] | undefined {
  const dir = env[VERDICTS_VARIABLE];
  if (!dir) return undefined;
  // Written by this run's global setup, in a folder only this user can read, moments ago: read, not re-checked.
  if (catalogue?.dir !== dir) catalogue = { dir, clauses: JSON.parse(readFileSync(path.join(dir, CATALOGUE_FILE), 'utf8')) as Clause[] };
  return catalogue.clauses;
}

/** How often a test that asked too early looks for the verdicts again. */
const POLL_MS = 5;

let verdicts: { dir: string; run: RunVerdicts } | undefined;

/** The verdicts of this run if the judge has left them by now. */
export function readyVerdicts(dir: string): RunVerdicts | undefined {
  if (verdicts?.dir === dir) return verdicts.run;
  const file = path.join(dir, VERDICTS_FILE);
  if (!existsSync(file)) return undefined;
  verdicts = { dir, run: JSON.parse(readFileSync(file, 'utf8')) as RunVerdicts };
  return verdicts.run;
}

/**
 * The verdicts of this run, once the judge has left them. The wait has no bound of its own: the runner
 * leaves a file, verdicts or a stop, and the run's own timeout bounds the judge. A runner that could write
 * neither (a full disk) removes the folder, which ends the wait at once.
 */
export async function awaitVerdicts(dir: string): Promise<RunVerdicts> {
  for (;;) {
    const run = readyVerdicts(dir);
    if (run) return run;
    if (!existsSync(dir)) throw new Error(`the runner left no verdicts in ${dir}: the run's error says why`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
