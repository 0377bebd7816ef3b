import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startEmbeddedTarget, type EmbeddedTarget } from '../reference-server/embedded.ts';
import { withEmbedded, type TargetConfig } from './config.ts';
import { bundleRecording, recordingOf } from './bundle-recording.ts';
import { replayedRecording } from './replay-bundle.ts';
import type { Exchange } from './exchange.ts';
import { stageEvidence } from './evidence-stage.ts';
import { judge } from './judge.ts';
import { preflightProblem, runStopped } from './preflight.ts';
import { record, type Recording } from './recording.ts';
import { cut, shown } from './evidence.ts';
import { createSecrets, redactValue, type Secrets } from './redact.ts';
import { consistencyOf } from './repeat.ts';
import { loadTargets } from './targets.ts';
import { loadCatalogue } from './catalogue.ts';
import { runFacts, verdictsOf, type RunFacts, type TargetVerdicts } from './verdicts.ts';
import { VERDICTS_VARIABLE, saveVerdicts } from './verdicts-file.ts';
import { REQUEST_LOG, type RequestLog } from './request-log.ts';
import { makeFolder } from './folders.ts';

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
  makeFolder(config.reportDir);
  writeFileSync(path.join(config.reportDir, REQUEST_LOG), `${JSON.stringify(log, null, 2)}\n`);
}

/** A replay's recording: the bundle's exchanges, nothing sent; in repeat mode, the consistency the run found. */
function replayed(replay: NonNullable<TargetConfig['replay']>): { recording: Recording; consistency?: RunFacts['consistency'] } {
  const bundle = replayedRecording(replay.file);
  return { recording: recordingOf(bundle), consistency: bundle.facts.consistency };
}

/** Records one target's answers (or reads them from a bundle) and judges every clause on them, in this process. */
async function judgeTarget(config: TargetConfig): Promise<{ verdicts: TargetVerdicts; problem?: string }> {
  const secrets = createSecrets(config);
  const { recording, consistency } = config.replay ? replayed(config.replay) : await recordLive(config, secrets);
  const facts = { ...runFacts(config, recording, secrets, consistency), replay: config.replay && { bundle: config.replay.bundle } };
  writeRequestLog(config, recording, facts, secrets);
  // The evidence bundle's exchanges, secrets as placeholders, written while the judge runs; the reporter adds the reports.
  stageEvidence(config.reportDir, bundleRecording(recording, config, secrets, facts), !config.evidenceDir);
  const problem = preflightProblem(config, recording);
  // The line that stops the run quotes what the target wrote (a coding's name of up to 16 KiB): redacted, then cut.
  return {
    verdicts: verdictsOf(problem === undefined ? judge(recording, config) : [], secrets, facts),
    problem: problem && cut(problem, secrets, STOPPED_LINE_CHARS),
  };
}

/** The most characters of the line that stops the run. */
const STOPPED_LINE_CHARS = 1000;

async function recordLive(config: TargetConfig, secrets: Secrets): Promise<{ recording: Recording; consistency?: RunFacts['consistency'] }> {
  const { recording, rounds } = await record(config);
  return { recording, consistency: config.repeat > 1 ? consistencyOf(rounds as Exchange[][], config.concurrency, (text) => shown(text, secrets)) : undefined };
}

/**
 * Sends every request of the run once per target, judges every clause of the catalogue on the answers,
 * and leaves the redacted verdicts for the tests to replay. The answers themselves stay in this process.
 */
export default async function globalSetup(_config: FullConfig): Promise<() => void> {
  const { multi, targets } = loadTargets();
  // The embedded reference target runs in this process, and only while its answers are recorded.
  const embedded: EmbeddedTarget | undefined = targets.some((t) => t.embedded && !t.replay) ? await startEmbeddedTarget() : undefined;
  const configs = targets.map((t) => (t.embedded && !t.replay && embedded ? withEmbedded(t, embedded) : t));
  const judged = await Promise.all(configs.map(judgeTarget)).finally(() => embedded?.close());
  for (const [i, { problem }] of judged.entries()) if (problem !== undefined) throw runStopped(multi ? `${configs[i].name}: ${problem}` : problem);
  const saved = saveVerdicts({
    catalogue: loadCatalogue(),
    targets: Object.fromEntries(configs.map((c, i) => [multi ? c.name : '', judged[i].verdicts])),
  });
  process.env[VERDICTS_VARIABLE] = saved.file;
  return () => saved.remove();
}
