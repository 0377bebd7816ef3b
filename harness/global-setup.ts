import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startEmbeddedTarget, type EmbeddedTarget } from '../reference-server/embedded.ts';
import { withEmbedded, type TargetConfig } from './config.ts';
import type { Exchange } from './exchange.ts';
import { judge } from './judge.ts';
import { preflightProblem, runStopped } from './preflight.ts';
import { record, type Recording } from './recording.ts';
import { shown } from './evidence.ts';
import { createSecrets, redactValue, type Secrets } from './redact.ts';
import { consistencyOf } from './repeat.ts';
import { loadTargets } from './targets.ts';
import { VERDICTS_VARIABLE, runFacts, saveVerdicts, verdictsOf, type TargetVerdicts } from './verdicts.ts';

export const REQUEST_LOG = 'requests.json';

/** The request log as written: what was sent and what came back, without bodies or secrets. */
export interface RequestLog {
  startedAt: string;
  target: TargetVerdicts['facts']['target'];
  requests: { method: string; path: string; credential: string; status?: number; durationMs: number; bodyBytes: number; failure?: string }[];
}

function writeRequestLog(config: TargetConfig, recording: Recording, facts: TargetVerdicts['facts'], secrets: Secrets): void {
  const requests = recording.exchanges.map((e) => ({
    method: e.request.method,
    path: e.request.path,
    credential: e.request.credential,
    status: e.status,
    durationMs: e.durationMs,
    bodyBytes: e.bodyBytes,
    failure: e.failure,
  }));
  const log: RequestLog = { startedAt: recording.startedAt, target: facts.target, requests: redactValue(requests, (text) => shown(text, secrets)) };
  mkdirSync(config.reportDir, { recursive: true });
  writeFileSync(path.join(config.reportDir, REQUEST_LOG), `${JSON.stringify(log, null, 2)}\n`);
}

/** Records one target's answers and judges every clause on them, in this process. */
async function judgeTarget(config: TargetConfig): Promise<{ verdicts: TargetVerdicts; problem?: string }> {
  const secrets = createSecrets(config);
  const { recording, rounds } = await record(config);
  const consistency = config.repeat > 1 ? consistencyOf(rounds as Exchange[][], config.concurrency, (text) => shown(text, secrets)) : undefined;
  const facts = runFacts(config, recording, secrets, consistency);
  writeRequestLog(config, recording, facts, secrets);
  const problem = preflightProblem(config, recording);
  return { verdicts: verdictsOf(problem === undefined ? judge(recording, config) : [], secrets, facts), problem: problem && shown(problem, secrets) };
}

/**
 * Sends every request of the run once per target, judges every clause of the catalogue on the answers,
 * and leaves the redacted verdicts for the tests to replay. The answers themselves stay in this process.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => void> {
  const { multi, targets } = loadTargets();
  // The embedded reference target runs in this process, and only while its answers are recorded.
  const embedded: EmbeddedTarget | undefined = targets.some((t) => t.embedded) ? await startEmbeddedTarget() : undefined;
  const configs = targets.map((t) => (t.embedded && embedded ? withEmbedded(t, embedded) : t));
  const judged = await Promise.all(configs.map(judgeTarget)).finally(() => embedded?.close());
  for (const [i, { problem }] of judged.entries()) if (problem !== undefined) throw runStopped(multi ? `${configs[i].name}: ${problem}` : problem);
  const saved = saveVerdicts(Object.fromEntries(configs.map((c, i) => [multi ? c.name : '', judged[i].verdicts])));
  process.env[VERDICTS_VARIABLE] = saved.file;
  return () => saved.remove();
}
