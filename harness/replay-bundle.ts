import path from 'node:path';
import { digestProblems, EXCHANGES, manifestOf, readBundle } from './bundle.ts';
import { placeholderSecrets, readBundleRecording, type BundleRecording } from './bundle-recording.ts';
import { ConfigError, loadConfig, type TargetConfig } from './config.ts';
import { contractsHash } from './contracts.ts';
import { specDocument } from './document.ts';
import { SUITE_VERSION } from './recording.ts';
import { readVariables, targetVariables, type Source } from './sources.ts';
import type { RunTargets } from './targets.ts';

// A replay runs the whole suite on an evidence bundle's exchanges instead of a live target: nothing is
// sent, and every clause, test and report is what the run that made the bundle had.

export const REPLAY_VARIABLE = 'CONFORMANCE_REPLAY';

/** The bundle's recording, once its digests hold and this suite made it: a replay judges nothing else. */
export function replayedRecording(bundle: string): BundleRecording {
  let files: ReturnType<typeof readBundle>;
  try {
    files = readBundle(bundle);
  } catch (error) {
    throw new ConfigError(`${REPLAY_VARIABLE}: ${(error as Error).message}`);
  }
  const manifest = manifestOf(files);
  const problems = digestProblems(files, manifest);
  if (problems.length > 0)
    throw new ConfigError(`${REPLAY_VARIABLE}: the bundle ${bundle} does not hold (${problems[0]}); admin-api-conformance verify names every difference`);
  const here = [SUITE_VERSION, contractsHash(), specDocument().sha256].join(' ');
  if ([manifest.suite.version, manifest.suite.contractsHash, manifest.document.sha256].join(' ') !== here) {
    throw new ConfigError(
      `${REPLAY_VARIABLE}: the bundle was made by suite ${manifest.suite.version} with contracts ${manifest.suite.contractsHash}; replay it with that suite, or compare with admin-api-conformance verify --anyway`,
    );
  }
  return readBundleRecording(files.get(EXCHANGES)!);
}

/**
 * The one target of a replay: the bundle's, its secrets standing for themselves as placeholders. The other
 * settings (report folder, limits, a deviations file) come as usual; a setting that names a target is a mistake.
 */
export function loadReplayTargets(bundleArg: string, env: Source, cwd: string): RunTargets {
  const vars = readVariables(env, cwd);
  const named = targetVariables().find((name) => (vars.env[name] ?? vars.dotenv[name]) !== undefined);
  if (named) throw new ConfigError(`${REPLAY_VARIABLE} takes the target from the bundle: unset ${named}`);
  const bundle = path.resolve(cwd, bundleArg);
  const recorded = replayedRecording(bundle);
  const settings = loadConfig({ ...env, CONFORMANCE_EMBEDDED: 'true' }, cwd);
  const ownDeviations = (vars.env.CONFORMANCE_DEVIATIONS ?? vars.dotenv.CONFORMANCE_DEVIATIONS) !== undefined;
  const { target } = recorded.facts;
  const config: TargetConfig = {
    ...settings,
    ...placeholderSecrets(recorded.input),
    name: target.name,
    baseUrl: target.baseUrl,
    embedded: target.embedded,
    deviations: ownDeviations ? settings.deviations : recorded.facts.deviations,
    product: recorded.facts.product,
    openapiPath: recorded.input.openapiPath,
    replay: { bundle: bundleArg, file: bundle },
  };
  return { multi: false, targets: [config], reportDir: settings.reportDir };
}
