import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import type { TargetConfig } from './config.ts';
import { loadTargets } from './targets.ts';
import type { Exchange } from './exchange.ts';
import { preflightProblem, runStopped } from './preflight.ts';
import { consistencyOf } from './repeat.ts';
import { createRedactor } from './redact.ts';
import { RECORDING_VARIABLE, record, removeRecording, saveRecording, type Recording } from './recording.ts';

export const REQUEST_LOG = 'requests.json';
export const CONSISTENCY_FILE = 'consistency.json';

/** The request log as the reporter reads it back. */
export interface RequestLog {
  startedAt: string;
  reportedVersion?: Record<string, string>;
  requests: { method: string; path: string; credential: string; status?: number; durationMs: number; bodyBytes: number; failure?: string }[];
}

/** What was sent and what came back, without bodies or secrets: the run's request log. */
function writeRequestLog(config: TargetConfig, recording: Recording): void {
  const redact = createRedactor(config);
  const log = recording.exchanges.map((e) => ({
    method: e.request.method,
    path: redact(e.request.path),
    credential: e.request.credential,
    status: e.status,
    durationMs: e.durationMs,
    bodyBytes: e.bodyBytes,
    failure: e.failure === undefined ? undefined : redact(e.failure),
  }));
  mkdirSync(config.reportDir, { recursive: true });
  const stated = recording.exchanges.find((e) => e.versionHeaders)?.versionHeaders;
  const reportedVersion = stated === undefined ? undefined : (JSON.parse(redact(JSON.stringify(stated))) as Record<string, string>);
  writeFileSync(path.join(config.reportDir, REQUEST_LOG), `${JSON.stringify({ startedAt: recording.startedAt, reportedVersion, requests: log }, null, 2)}\n`);
}

/** Repeat mode: whether the rounds were answered alike, and the latencies, beside the request log. */
function writeConsistency(config: TargetConfig, rounds: Exchange[][]): void {
  const consistency = consistencyOf(rounds, config.concurrency, createRedactor(config));
  writeFileSync(path.join(config.reportDir, CONSISTENCY_FILE), `${JSON.stringify(consistency, null, 2)}\n`);
}

/** Sends every request of the run once per target, before any check, and hands the answers to the workers. */
export default async function globalSetup(_config: FullConfig): Promise<() => void> {
  const { multi, targets } = loadTargets();
  const recorded = await Promise.all(targets.map((config) => record(config)));
  const recordings = recorded.map((r) => r.recording);
  targets.forEach((config, i) => writeRequestLog(config, recordings[i]));
  targets.forEach((config, i) => config.repeat > 1 && writeConsistency(config, recorded[i].rounds));
  for (const [i, config] of targets.entries()) {
    const problem = preflightProblem(config, recordings[i]);
    if (problem !== undefined) throw runStopped(multi ? `${config.name}: ${problem}` : problem);
  }
  const files = Object.fromEntries(targets.map((config, i) => [multi ? config.name : '', saveRecording(recordings[i])]));
  process.env[RECORDING_VARIABLE] = JSON.stringify(files);
  return () => Object.values(files).forEach(removeRecording);
}
