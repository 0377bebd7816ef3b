import { loadTargets, replayOf, type RunTargets } from '../config/targets.ts';
import { ConfigError } from '../files/config-error.ts';
import { visible } from '../files/visible.ts';

/** The run's targets: a replayed bundle's one target, or those of the settings. */
export function loadRun(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): RunTargets {
  const replay = replayOf(env, cwd);
  if (replay === undefined) return loadTargets(env, cwd);
  // Required, not imported: a run that replays nothing loads none of the bundle's modules.
  const run = (require('../evidence/replay-bundle') as typeof import('../evidence/replay-bundle')).loadReplayTargets(replay, env, cwd);
  verifiedFirst(run.targets[0].replay!.file, replay);
  return run;
}

/**
 * A replay judges only a bundle that verify would call VERIFIED: its digests, its statuses judged again, and
 * every rendering a person reads. A bundle changed in any of them is refused, in one line, before anything runs.
 */
function verifiedFirst(file: string, given: string): void {
  const { readBundle } = require('../evidence/bundle-reader') as typeof import('../evidence/bundle-reader');
  const { verifyBundle } = require('../../commands/verify') as typeof import('../../commands/verify');
  const [difference] = verifyBundle(readBundle(file)).differences;
  if (difference !== undefined)
    throw new ConfigError(
      `CONFORMANCE_REPLAY: the bundle ${given} does not verify (${visible(difference)}); admin-api-conformance verify names every difference`,
    );
}

let thisRun: RunTargets | undefined;

/**
 * The targets of this run, read once: the configuration, global setup and the reporter all run in
 * Playwright's runner, and take the same reading (a replayed bundle is checked once; the judging reads its
 * exchanges).
 */
export function runTargets(): RunTargets {
  thisRun ??= loadRun();
  return thisRun;
}
