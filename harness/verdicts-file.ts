import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Clause } from './catalogue.ts';
import type { TargetVerdicts } from './verdicts.ts';

// What global setup hands the tests: the catalogue it judged and every target's verdicts, secrets replaced.
// Workers read it at every start (one per failing clause), so it is all they read: no YAML, no schemas.

/** Where global setup leaves the verdicts for the workers: a path, inherited through the environment. */
export const VERDICTS_VARIABLE = 'ADMIN_API_CONFORMANCE_VERDICTS';

export interface RunVerdicts {
  /** The catalogue as global setup read and checked it, in its order: one test per clause. */
  catalogue: Clause[];
  /** By Playwright project name ('' for a single target). */
  targets: Record<string, TargetVerdicts>;
}

/** Writes the run's verdicts to a private temporary folder. They hold no secret. */
export function saveVerdicts(verdicts: RunVerdicts): { file: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const file = path.join(dir, 'verdicts.json');
  writeFileSync(file, JSON.stringify(verdicts), { mode: 0o600 });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let cached: { file: string; verdicts: RunVerdicts } | undefined;

/** The verdicts global setup of this run left, when it has run (not in `--list`, say). */
export function inheritedVerdicts(env: Record<string, string | undefined> = process.env): RunVerdicts | undefined {
  const file = env[VERDICTS_VARIABLE];
  if (!file) return undefined;
  // Written by this run's global setup, in a folder only this user can read, moments ago: read, not re-checked.
  if (cached?.file !== file) cached = { file, verdicts: JSON.parse(readFileSync(file, 'utf8')) as RunVerdicts };
  return cached.verdicts;
}
