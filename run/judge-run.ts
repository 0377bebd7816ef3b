// The run's judging: every request of the run sent once per target, every clause judged, the request log and
// the evidence left in the report folder. Targets are judged side by side, each on its own.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedTarget, type EmbeddedTarget } from '../reference-server/embedded.ts';
import { withEmbedded, type TargetConfig } from '../harness/config/config.ts';
import { bundleRecording, confirmationsOf, recordingOf } from '../harness/evidence/bundle-recording.ts';
import type { Exchange } from '../harness/transport/exchange.ts';
import { stageEvidence } from '../harness/evidence/evidence-stage.ts';
import { judge } from '../harness/judging/judge.ts';
import { preflightProblem } from '../harness/recording/preflight.ts';
import { bounded, record, type Recording } from '../harness/recording/recording.ts';
import { cut, runFacts, runsOf, shown, type RunFacts, type ShardOfRun } from '../harness/judging/verdicts.ts';
import type { Shard } from '../harness/config/targets.ts';
import { createSecrets, redactValue, type Secrets } from '../harness/secrets/redact.ts';
import { consistencyOf } from '../harness/judging/repeat.ts';
import type { Clause } from '../harness/contracts/catalogue.ts';
import { REQUEST_LOG, type RequestLog } from '../harness/evidence/request-log.ts';
import { makeFolderAsync } from '../harness/files/folders.ts';
import { loadChecks } from '../checks/index.ts';
import type { Check } from '../harness/judging/judge.ts';
import { setMaxListeners } from 'node:events';
import { politeStart } from '../harness/recording/politeness.ts';
import { replayedRecording } from '../harness/evidence/replay-bundle.ts';
import type { ClauseRun } from '../harness/judging/verdicts.ts';
import { confirmedRuns } from '../harness/judging/confirmation-evidence.ts';
import { failedClauses, requestsToConfirm } from '../harness/judging/confirmation.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import { sendAgain } from '../harness/recording/confirm.ts';

/** Writes the request log beside the reports (requests.json); returns its text, which the bundle carries too. */
async function writeRequestLog(config: TargetConfig, recording: Recording, facts: RunFacts, secrets: Secrets): Promise<string> {
  const versionPath = config.readVersion?.path;
  const requests = recording.exchanges.map((e) => ({
    method: e.request.method,
    path: e.request.path,
    credential: e.request.credential,
    status: e.status,
    durationMs: e.durationMs,
    bodyBytes: e.bodyBytes,
    failure: e.failure,
    ...(e.request.path === versionPath && e.request.credential === 'admin' ? { outsideDocument: 'product-version' as const } : {}),
  }));
  const log: RequestLog = { startedAt: recording.startedAt, target: facts.target, requests: redactValue(requests, (text) => shown(text, secrets)) };
  const text = `${JSON.stringify(log, null, 2)}\n`;
  await makeFolderAsync(config.reportDir);
  await writeFile(path.join(config.reportDir, REQUEST_LOG), text);
  return text;
}

/** What a target answered: the recording, the consistency of repeat mode, and the confirmations of a replayed bundle. */
interface Answered {
  recording: Recording;
  consistency?: RunFacts['consistency'];
  confirmations?: Exchange[][];
}

/** A replay's recording: the bundle's exchanges, nothing sent; in repeat mode, the consistency the run found; the confirmations it sent. */
function replayed(replay: NonNullable<TargetConfig['replay']>): Answered {
  const bundle = replayedRecording(replay.file);
  return { recording: recordingOf(bundle), consistency: bundle.facts.consistency, confirmations: confirmationsOf(bundle) };
}

/**
 * The confirmations of the first judging's failures: a replay's, as its bundle holds them; a live run's, the
 * requests each failed clause was judged from sent `config.confirm` more times (CONFORMANCE_CONFIRM).
 */
async function confirmations(config: TargetConfig, answered: Answered, first: ClauseCheck[], checks: Check[], signal: AbortSignal): Promise<Exchange[][]> {
  if (config.replay) return answered.confirmations ?? [];
  const failed = failedClauses(answered.recording, config, checks, first);
  return sendAgain(config, answered.recording, requestsToConfirm(answered.recording, failed), config.confirm, signal);
}

/** One target's verdicts, or the problem that left nothing of it to judge. */
export interface TargetJudgement {
  config: TargetConfig;
  facts: RunFacts;
  /** Every clause's run, as the judge gave it; empty when `problem` says why there is nothing to judge. */
  runs: ClauseRun[];
  /** Why no clause of this target could be judged (no answer, every request 404, the admin token refused). */
  problem?: string;
}

export interface RunJudgement {
  catalogue: Clause[];
  /** The day deviations are judged against (YYYY-MM-DD), taken once when the run started. */
  today: string;
  targets: TargetJudgement[];
}

/** A shard's place in its run, as its matrix and each of its targets' bundles name it. */
const shardOfRun = ({ current, total, run, runTargets }: Shard): ShardOfRun => ({ shard: `${current}/${total}`, run, runTargets });

/** Records one target's answers (or reads them from a bundle) and judges every clause on them, in this process. */
async function judgeTarget(
  config: TargetConfig,
  catalogue: Clause[],
  checks: Check[],
  signal: AbortSignal,
  shard: Shard | undefined,
): Promise<TargetJudgement | undefined> {
  const secrets = createSecrets(config);
  // Two runs of one target in this process start CONFORMANCE_MIN_INTERVAL_MS apart (an exporter's probes).
  if (!config.replay) await politeStart(config, signal);
  const answered = config.replay ? replayed(config.replay) : await recordLive(config, secrets, signal);
  const { recording, consistency } = answered;
  // A run stopped meanwhile (Ctrl+C) reports nothing of what was cut short.
  if (signal.aborted) return undefined;
  const facts = {
    ...runFacts(config, recording, secrets, consistency),
    replay: config.replay && { bundle: config.replay.bundle },
    ...(shard && { shard: shardOfRun(shard) }),
  };
  const requestLog = await writeRequestLog(config, recording, facts, secrets);
  // The evidence bundle's exchanges, secrets as placeholders, put together while the judge runs (once its failures
  // are confirmed, when they are to be); the reporter adds the reports.
  const stage = (rounds: Exchange[][]) =>
    stageEvidence(config.reportDir, bundleRecording(recording, config, secrets, facts, rounds), requestLog, !config.evidenceDir);
  const confirming = config.replay ? (answered.confirmations ?? []).length > 0 : config.confirm > 0;
  if (!confirming) stage([]);
  const problem = preflightProblem(config, recording);
  // The line that stops the run quotes what the target wrote (a coding's name of up to 16 KiB): redacted, then cut.
  if (problem !== undefined) {
    if (confirming) stage([]);
    return { config, facts, runs: [], problem: cut(problem, secrets, STOPPED_LINE_CHARS) };
  }
  const first = judge(recording, config, checks);
  if (!confirming) return { config, facts, runs: runsOf(catalogue, first, secrets) };
  const rounds = await confirmations(config, answered, first, checks, signal);
  if (signal.aborted) return undefined;
  stage(rounds);
  return { config, facts, runs: confirmedRuns(catalogue, recording, config, checks, first, rounds, secrets).runs };
}

/** The most characters of the line that stops the run. */
const STOPPED_LINE_CHARS = 1000;

async function recordLive(config: TargetConfig, secrets: Secrets, signal: AbortSignal): Promise<Answered> {
  const { recording, rounds } = await record(config, signal);
  return { recording, consistency: config.repeat > 1 ? consistencyOf(rounds as Exchange[][], config.concurrency, (text) => shown(text, secrets)) : undefined };
}

/**
 * The most targets recorded at once. A target holds its place until its own answers are in (or its requests'
 * deadlines passed), so one hanging or slow target delays none of the others past that; the bound keeps a fleet
 * of hundreds from opening hundreds of connection pools at once.
 */
export const TARGETS_AT_ONCE = 32;

/** What stands for a target's judgement handed on (judgeTargets' `handOn`) and let go. */
const HANDED_ON = Symbol('handed on');

/**
 * Judges every target of the run, each on its own: a target that left nothing to judge has its problem, and
 * the others their verdicts. Undefined when `signal` stopped the run meanwhile.
 */
export async function judgeTargets(
  targets: TargetConfig[],
  catalogue: Clause[],
  today: string,
  signal: AbortSignal,
  shard?: Shard,
  handOn?: (place: number, judged: TargetJudgement) => Promise<void>,
): Promise<RunJudgement | undefined> {
  // Every request in flight listens for the stop: a fleet has hundreds at once, which is no leak.
  setMaxListeners(0, signal);
  // The embedded reference target runs in this process, and only while its answers are recorded.
  const embedded: EmbeddedTarget | undefined = targets.some((t) => t.embedded && !t.replay) ? await startEmbeddedTarget() : undefined;
  const configs = targets.map((t) => (t.embedded && !t.replay && embedded ? withEmbedded(t, embedded) : t));
  const checks = loadChecks();
  // Handed on, a target's judgement is not kept: its place holds only that it was judged.
  const judgeOne = async (c: TargetConfig, place: number) => {
    const judged = await judgeTarget(c, catalogue, checks, signal, shard);
    if (judged === undefined || handOn === undefined || signal.aborted) return judged;
    await handOn(place, judged);
    return HANDED_ON;
  };
  const judged = await bounded(
    configs.map((c, place) => () => judgeOne(c, place)),
    TARGETS_AT_ONCE,
  ).finally(() => embedded?.close());
  if (signal.aborted || judged.some((t) => t === undefined)) return undefined;
  return { catalogue, today, targets: judged.filter((t): t is TargetJudgement => t !== HANDED_ON) };
}
