import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Clause } from '../harness/contracts/catalogue.ts';
import { isNode } from '../harness/contracts/validator.ts';
import type { Replay } from '../run/replays.ts';

// What global setup hands the workers: one file, written once before any worker starts, in a folder only this
// user can read, and read once by each worker. It holds what a test replays and what the Playwright config
// needs, secrets already replaced; the reports themselves are the engine's (run/), written in the runner.

/** Where global setup left the file: inherited by the workers through the environment. */
export const REPLAY_FILE_VARIABLE = 'ADMIN_API_CONFORMANCE_REPLAY_FILE';

/** The annotation a clause's test names its status with, in the suite's words (reporters/conformance-result.ts). */
export const STATUS_ANNOTATION = 'status';
/** The annotation a fleet's test names the share of its targets with that gave the status. */
export const SHARE_ANNOTATION = 'targets';

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
  if (read?.name !== name) read = { name, file: replayFileOf(JSON.parse(readFileSync(name, 'utf8')), name) };
  return read.file;
}

/**
 * The workers' file, checked where it is read. Global setup wrote it moments ago in a folder only this user can
 * read; a worker loads no validator for it, but a file that is not what global setup writes stops the worker.
 */
function replayFileOf(value: unknown, name: string): ReplayFile {
  if (!isReplayFile(value)) throw new Error(`${name} is not the file this run's global setup leaves its workers`);
  return value;
}

function isReplayFile(value: unknown): value is ReplayFile {
  return (
    isNode(value) &&
    typeof value.reportDir === 'string' &&
    typeof value.runTimeoutMs === 'number' &&
    (value.projects === undefined || (Array.isArray(value.projects) && value.projects.every((p) => typeof p === 'string'))) &&
    Array.isArray(value.catalogue) &&
    value.catalogue.every(
      (c) => isNode(c) && typeof c.id === 'string' && typeof c.title === 'string' && typeof c.level === 'string' && typeof c.section === 'string',
    ) &&
    isNode(value.replays) &&
    Object.values(value.replays).every((byClause) => isNode(byClause) && Object.values(byClause).every((r) => isNode(r) && typeof r.status === 'string'))
  );
}
