import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Clause } from '../contracts/catalogue.ts';
import type { ClauseStatus } from '../../reporters/conformance-result.ts';

// What global setup hands the workers: one file, written once before any worker starts, in a folder only this
// user can read, and read once by each worker. It holds what a test replays and what the Playwright config
// needs, secrets already replaced; the verdicts themselves stay in the runner (harness/run/run-judgement.ts).

/** Where global setup left the file: inherited by the workers through the environment. */
export const REPLAY_FILE_VARIABLE = 'ADMIN_API_CONFORMANCE_REPLAY_FILE';

/** What one clause's test does: its status as the report will give it, and the words it fails or skips with. */
export interface Replay {
  status: ClauseStatus;
  message?: string;
  /** Why a failure is expected: the known deviation that excuses it. */
  deviation?: string;
}

export interface ReplayFile {
  /** Where the run's own reports go; Playwright's by-products are kept apart by it. */
  reportDir: string;
  /** One Playwright project per target, by name; none for a single target or a fleet. */
  projects?: string[];
  runTimeoutMs: number;
  catalogue: Clause[];
  /** Each project's replays by name ('' for a single target or a fleet), each clause's by id. */
  replays: Record<string, Record<string, Replay>>;
}

/** Writes the file, whole, and names it in the environment the workers inherit; returns what removes it. */
export function leaveReplayFile(file: ReplayFile): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'admin-api-conformance-run-'));
  const name = path.join(dir, 'replay.json');
  writeFileSync(name, JSON.stringify(file), { mode: 0o600 });
  process.env[REPLAY_FILE_VARIABLE] = name;
  return () => {
    delete process.env[REPLAY_FILE_VARIABLE];
    rmSync(dir, { recursive: true, force: true });
  };
}

let read: { name: string; file: ReplayFile } | undefined;

/** The file global setup left for this run, read once; undefined where none was left (`--list` runs no global setup). */
export function replayFile(env: Record<string, string | undefined> = process.env): ReplayFile | undefined {
  const name = env[REPLAY_FILE_VARIABLE];
  if (!name) return undefined;
  // Written by this run's global setup, moments ago, in a folder only this user can read.
  if (read?.name !== name) read = { name, file: JSON.parse(readFileSync(name, 'utf8')) as ReplayFile };
  return read.file;
}
