import path from 'node:path';
import { gateOf, BASELINE_VARIABLE, GATE_VARIABLE, type Gate } from '../harness/config/gate.ts';
import { readSettings, type Settings } from '../harness/config/settings.ts';
import { givenRunIdentity, targetsOf, type RunTargets } from '../harness/config/targets.ts';
import { historyOf } from '../harness/config/history.ts';
import { historyFor, runIdentityFor, type RunHistory } from './history.ts';
import { ConfigError } from '../harness/files/config-error.ts';
import { visible } from '../harness/files/visible.ts';
import { specDocument } from '../harness/contracts/document.ts';
import type { Baseline } from '../reporters/baseline.ts';
import { replayTargets } from '../harness/evidence/replay-bundle.ts';
import { readBundle } from '../harness/evidence/bundle-reader.ts';
import { runOf, ReportFileError } from '../readers/report-file.ts';
import { compareTexts, DocumentTextError } from '../readers/document-texts.ts';
import { verifyBundle } from '../readers/verify.ts';
import { metricsSettingsOf } from '../reporters/metrics-file.ts';
import type { MetricsOptions } from '../reporters/metrics.ts';
import { BundleBesideError } from '../readers/bundled-report.ts';

/** A run as configured: its targets, the gate its exit code follows, and the baseline it is compared with. */
export interface Run extends RunTargets {
  gate: Gate;
  baseline?: Baseline;
  /** What metrics.prom holds beyond its defaults (CONFORMANCE_METRICS_CLAUSES). */
  metrics?: MetricsOptions;
  /** The run history it labels its reports against and appends to (CONFORMANCE_HISTORY). */
  history?: RunHistory;
}

/**
 * The run's targets (a replayed bundle's one target, or those of the settings), its gate and its baseline, from
 * its settings, read once (harness/config/settings.ts): `.env` once, however many targets.
 */
export function loadRun(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): Run {
  const settings = readSettings(env, cwd);
  const targets = settings.replay === undefined ? targetsOf(settings) : replayed(settings.replay, settings);
  const { gate, baseline } = gateOf(settings.variables, cwd, targets.reportDir);
  const history = historyOf(settings.variables, cwd, targets.reportDir);
  return {
    ...targets,
    gate,
    metrics: metricsSettingsOf(settings.variables),
    ...(baseline && { baseline: { source: baseline.source, ...baselineRun(baseline.file, gate) } }),
    ...(history && { history: historyFor(history, runIdentityFor(givenRunIdentity(settings), targets.shard)) }),
  };
}

function replayed(replay: string, settings: Settings): RunTargets {
  const run = replayTargets(replay, settings);
  verifiedFirst(run.targets[0].replay!.file, replay);
  return run;
}

/**
 * The baseline's reports, read as `admin-api-conformance diff` reads a run (a bundle verified first), before
 * anything is sent, and, when it was judged against another text of the document, the two texts compared row by
 * row as diff compares them (a bundle carries its text). Under the ratchet, whose exit code the baseline's failures
 * decide, a report is taken only as the evidence bundle beside it holds it: a conformance.json alone says what
 * anyone wrote in it. A baseline that cannot be read or verified is a configuration error, never a comparison left out.
 */
function baselineRun(file: string, gate: Gate): Pick<Baseline, 'reports' | 'documents'> {
  try {
    const { reports, bundled } = runOf(file, undefined, { verified: gate === 'regressions' });
    const documents = compareTexts({ side: 'old', sha256: reports[0].document.sha256, bundled }, { side: 'new', sha256: specDocument().sha256 });
    return { reports, ...(documents && { documents }) };
  } catch (error) {
    if (error instanceof BundleBesideError) throw new ConfigError(`${BASELINE_VARIABLE}: ${visible(unverifiedBaseline(error))}`);
    if (!(error instanceof ReportFileError) && !(error instanceof DocumentTextError)) throw error;
    throw new ConfigError(`${BASELINE_VARIABLE}: ${visible(error.message)}`);
  }
}

/** Why the ratchet cannot take a report of the baseline, and what to give instead. */
function unverifiedBaseline({ kind, bundle, detail }: BundleBesideError): string {
  if (kind === 'none')
    return `${path.dirname(bundle)} has no evidence bundle beside its conformance.json (${bundle}), so the baseline cannot be verified; under ${GATE_VARIABLE}=regressions give the run's evidence bundle or its whole report folder`;
  if (kind === 'unreadable') return `the evidence bundle ${bundle} cannot be read: ${detail}; give the run's evidence bundle or its whole report folder`;
  if (kind === 'changed') return detail;
  // Not asked for here (judged: false): a baseline of another judge sets no failure aside.
  if (kind === 'other-judge') return `the evidence bundle ${bundle} was made by another judge: ${detail}`;
  return `the evidence bundle ${bundle} does not verify (${detail}); admin-api-conformance verify names every difference`;
}

/**
 * A replay judges only a bundle that verify would call VERIFIED: its digests, its statuses judged again, and
 * every rendering a person reads. A bundle changed in any of them is refused, in one line, before anything runs.
 */
function verifiedFirst(file: string, given: string): void {
  const [difference] = verifyBundle(readBundle(file)).differences;
  if (difference !== undefined)
    throw new ConfigError(
      `CONFORMANCE_REPLAY: the bundle ${given} does not verify (${visible(difference)}); admin-api-conformance verify names every difference`,
    );
}
