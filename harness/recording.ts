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

/** How many requests are in flight at once. */
const CONCURRENCY = 4;

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

/** Sends the run's request plan once, a few at a time. */
export async function record(config: TargetConfig): Promise<Recording> {
  const run = makeRunSecrets();
  const startedAt = new Date().toISOString();
  const plan = requestPlan(config, run);
  const options = { baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, maxBodyBytes: config.maxBodyBytes, userAgent: `admin-api-conformance/${SUITE_VERSION}`, tokenFor: credentials(config, run) };
  const exchanges: Exchange[] = new Array(plan.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < plan.length; i = next++) exchanges[i] = await send(plan[i], options);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, plan.length) }, lane));
  return { run, startedAt, exchanges };
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
