import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TargetConfig } from './config.ts';
import type { Credential, Exchange, ExchangeRequest } from './exchange.ts';
import { send } from './http.ts';
import { makeRunSecrets, requestPlan, type RunSecrets } from './plan.ts';

export const SUITE_VERSION = '0.1.0';

/** Where global setup leaves the recording for the workers and the reporter. */
export const RECORDING_VARIABLE = 'CONFORMANCE_RECORDING_FILE';

/** Every answer of one run. All clauses, in every worker, judge these same answers. */
export interface Recording {
  run: RunSecrets;
  startedAt: string;
  exchanges: Exchange[];
}

export const keyOf = (request: Pick<ExchangeRequest, 'path' | 'credential'>) => `${request.credential} ${request.path}`;

function credentials(config: TargetConfig, run: RunSecrets): (c: Credential) => string | undefined {
  const tokens: Record<Credential, string | undefined> = { admin: config.adminToken, forbidden: config.forbiddenToken, invalid: run.invalidToken, none: undefined };
  return (c) => tokens[c];
}

/** Runs the tasks with at most `lanes` of them in flight at once, results in task order. */
async function bounded<T>(tasks: (() => Promise<T>)[], lanes: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < tasks.length; i = next++) results[i] = await tasks[i]();
  };
  await Promise.all(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
  return results;
}

/**
 * Sends the run's request plan `config.repeat` times, `config.concurrency` requests at a time. The first
 * round is the recording every clause judges; the others only show whether the target answers alike.
 */
export async function record(config: TargetConfig): Promise<{ recording: Recording; rounds: Exchange[][] }> {
  const run = makeRunSecrets();
  const startedAt = new Date().toISOString();
  const plan = requestPlan(config, run);
  const options = { baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, maxBodyBytes: config.maxBodyBytes, userAgent: `admin-api-conformance/${SUITE_VERSION}`, tokenFor: credentials(config, run) };
  const tasks = Array.from({ length: config.repeat }, () => plan.map((request) => () => send(request, options))).flat();
  const answers = await bounded(tasks, config.concurrency);
  const rounds = Array.from({ length: config.repeat }, (_, r) => answers.slice(r * plan.length, (r + 1) * plan.length));
  return { recording: { run, startedAt, exchanges: rounds[0] }, rounds };
}

/** The recording holds secrets as sent: it lives in a private temporary folder and is removed at the end. */
export function saveRecording(recording: Recording): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const file = path.join(dir, 'recording.json');
  writeFileSync(file, JSON.stringify(recording), { mode: 0o600 });
  chmodSync(dir, 0o700);
  return file;
}

export function loadRecording(file: string): Recording {
  return JSON.parse(readFileSync(file, 'utf8')) as Recording;
}

export function removeRecording(file: string): void {
  rmSync(path.dirname(file), { recursive: true, force: true });
}
