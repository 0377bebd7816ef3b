import path from 'node:path';
import { overlap } from '../files/folders.ts';
import { digestProblems, EXCHANGES, manifestOf } from './bundle.ts';
import { BundleError } from './bundle-error.ts';
import { readBundle } from './bundle-reader.ts';
import { placeholderSecrets, readBundleRecording, type BundleRecording } from './bundle-recording.ts';
import { targetConfig, type TargetConfig } from '../config/config.ts';
import { contractsHash } from '../contracts/contracts.ts';
import { specDocument } from '../contracts/document.ts';
import { SUITE_VERSION } from '../contracts/run-identity.ts';
import { replayFolderProblem } from '../config/replay-folder.ts';
import { REPLAY_VARIABLE, type Settings } from '../config/settings.ts';
import { targetVariables, variable } from '../config/sources.ts';
import type { RunTargets } from '../config/targets.ts';
import { ConfigError } from '../files/config-error.ts';
import { visible } from '../files/visible.ts';

// A replay runs the whole suite on an evidence bundle's exchanges instead of a live target: nothing is
// sent, and every clause, test and report is what the run that made the bundle had.

/** The bundle's recording, once its digests hold and this suite made it: a replay judges nothing else. */
export function replayedRecording(bundle: string): BundleRecording {
  try {
    return readReplayed(bundle);
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    throw new ConfigError(
      `${REPLAY_VARIABLE}: ${bundle} cannot be replayed: ${error.message}; give the evidence.tar.gz a run wrote, or the folder it unpacks to`,
    );
  }
}

function readReplayed(bundle: string): BundleRecording {
  const files = readBundle(bundle);
  const manifest = manifestOf(files);
  const problems = digestProblems(files, manifest);
  if (problems.length > 0)
    throw new ConfigError(
      `${REPLAY_VARIABLE}: the bundle ${bundle} does not hold (${visible(problems[0])}); admin-api-conformance verify names every difference`,
    );
  const here = [SUITE_VERSION, contractsHash(), specDocument().sha256].join(' ');
  if ([manifest.suite.version, manifest.suite.contractsHash, manifest.document.sha256].join(' ') !== here) {
    throw new ConfigError(
      `${REPLAY_VARIABLE}: the bundle was made by suite ${visible(manifest.suite.version)} with contracts ${visible(manifest.suite.contractsHash)}; replay it with that suite, or compare with admin-api-conformance verify --anyway`,
    );
  }
  const exchanges = files.get(EXCHANGES);
  if (!exchanges) throw new BundleError(`${EXCHANGES} in the bundle is missing`);
  // Read against its schema though its digest holds: a digest says the file is the one listed, not that it is right.
  return readBundleRecording(exchanges);
}

/** Whether a base URL is one a run writes: http or https, no user, password, query or fragment. */
function plainBaseUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return /^https?:$/.test(url.protocol) && !url.username && !url.password && !url.search && !url.hash;
  } catch {
    return false;
  }
}

/**
 * The one target of a replay: the bundle's, its secrets standing for themselves as placeholders. The other
 * settings (report folder, limits, a deviations file) come as usual; a setting that names a target is a mistake.
 */
export function replayTargets(bundleArg: string, run: Settings): RunTargets {
  const { variables, cwd } = run;
  const folderProblem = replayFolderProblem(variables, cwd);
  if (folderProblem) throw new ConfigError(folderProblem);
  const named = targetVariables().find((name) => variable(variables, name) !== undefined);
  if (named) throw new ConfigError(`${REPLAY_VARIABLE} takes the target from the bundle: unset ${named}`);
  const bundle = path.resolve(cwd, bundleArg);
  const recorded = replayedRecording(bundle);
  // The run's own settings, the embedded target standing for the bundle's, as though CONFORMANCE_EMBEDDED=true were given.
  const asEmbedded = { ...variables, env: { ...variables.env, CONFORMANCE_EMBEDDED: 'true' } };
  const settings = targetConfig({ ...run, variables: asEmbedded }, run.entries[0]);
  // The replay writes its own bundle at the end: over the one it replays, were they one place.
  if (settings.evidenceDir && overlap(settings.evidenceDir, bundle))
    throw new ConfigError(
      `CONFORMANCE_EVIDENCE_DIR ${settings.evidenceDir} and the bundle to replay ${bundle} overlap: the replay's bundle would replace the one it replays; give another evidence folder`,
    );
  const ownDeviations = variable(variables, 'CONFORMANCE_DEVIATIONS') !== undefined;
  const { target } = recorded.facts;
  // No run writes a base URL with a user, a password or a query (the configuration refuses them): one that has
  // them was written by hand, and would print them; it is refused without being quoted.
  if (!plainBaseUrl(target.baseUrl))
    throw new ConfigError(
      `${REPLAY_VARIABLE}: the bundle's base URL carries a user, a password, a query or a fragment, which no run writes; it is not replayed`,
    );
  const config: TargetConfig = {
    ...settings,
    ...placeholderSecrets(recorded.input),
    name: target.name,
    baseUrl: target.baseUrl,
    embedded: target.embedded,
    deviations: ownDeviations ? settings.deviations : recorded.facts.deviations,
    product: recorded.facts.product,
    claim: settings.claim ?? recorded.facts.claim,
    openapiPath: recorded.input.openapiPath,
    replay: { bundle: bundleArg, file: bundle },
  };
  return { multi: false, targets: [config], reportDir: settings.reportDir };
}
