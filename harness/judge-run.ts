// What the runner does while the first worker starts (harness/judging.ts): every request of the run sent
// once per target, every clause judged, the request log and the evidence left in the report folder.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startEmbeddedTarget, type EmbeddedTarget } from '../reference-server/embedded.ts';
import { withEmbedded, type TargetConfig } from './config.ts';
import { bundleRecording, recordingOf } from './bundle-recording.ts';
import type { Exchange } from './exchange.ts';
import { stageEvidence } from './evidence-stage.ts';
import { judge } from './judge.ts';
import { preflightProblem } from './preflight.ts';
import { record, type Recording } from './recording.ts';
import { cut, shown } from './evidence.ts';
import { createSecrets, redactValue, type Secrets } from './redact.ts';
import { consistencyOf } from './repeat.ts';
import { runFacts, verdictsOf, type RunFacts, type TargetVerdicts } from './verdicts.ts';
import type { JudgedTargets } from './verdicts-file.ts';
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
  // Required, not imported: a run that replays nothing loads none of the bundle's modules (harness/targets.ts).
  const { replayedRecording } = require('./replay-bundle') as typeof import('./replay-bundle');
  const bundle = replayedRecording(replay.file);
  return { recording: recordingOf(bundle), consistency: bundle.facts.consistency };
}

/** Records one target's answers (or reads them from a bundle) and judges every clause on them, in this process. */
async function judgeTarget(config: TargetConfig, signal: AbortSignal): Promise<{ verdicts: TargetVerdicts; problem?: string } | undefined> {
  const secrets = createSecrets(config);
  const { recording, consistency } = config.replay ? replayed(config.replay) : await recordLive(config, secrets, signal);
  // A run stopped meanwhile (Ctrl+C) reports nothing of what was cut short.
  if (signal.aborted) return undefined;
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

async function recordLive(
  config: TargetConfig,
  secrets: Secrets,
  signal: AbortSignal,
): Promise<{ recording: Recording; consistency?: RunFacts['consistency'] }> {
  const { recording, rounds } = await record(config, signal);
  return { recording, consistency: config.repeat > 1 ? consistencyOf(rounds as Exchange[][], config.concurrency, (text) => shown(text, secrets)) : undefined };
}

/**
 * Judges every target of the run: their verdicts by project name, or the problem that leaves nothing to
 * judge (harness/preflight.ts), or neither when `signal` stopped the run meanwhile.
 */
export async function judgeTargets(targets: TargetConfig[], multi: boolean, signal: AbortSignal): Promise<{ problem?: string; targets?: JudgedTargets }> {
  // The embedded reference target runs in this process, and only while its answers are recorded.
  const embedded: EmbeddedTarget | undefined = targets.some((t) => t.embedded && !t.replay) ? await startEmbeddedTarget() : undefined;
  const configs = targets.map((t) => (t.embedded && !t.replay && embedded ? withEmbedded(t, embedded) : t));
  const judged = await Promise.all(configs.map((c) => judgeTarget(c, signal))).finally(() => embedded?.close());
  const verdicts: JudgedTargets = {};
  for (const [i, target] of judged.entries()) {
    if (target === undefined) return {};
    if (target.problem !== undefined) return { problem: multi ? `${configs[i].name}: ${target.problem}` : target.problem };
    verdicts[multi ? configs[i].name : ''] = target.verdicts;
  }
  return { targets: verdicts };
}
