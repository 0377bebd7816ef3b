import { loadTargets, replayOf, type RunTargets } from '../config/targets.ts';

/** The run's targets: a replayed bundle's one target, or those of the settings. */
export function loadRun(env: Record<string, string | undefined> = process.env, cwd: string = process.cwd()): RunTargets {
  const replay = replayOf(env, cwd);
  // Required, not imported: a run that replays nothing loads none of the bundle's modules.
  if (replay !== undefined) return (require('../evidence/replay-bundle') as typeof import('../evidence/replay-bundle')).loadReplayTargets(replay, env, cwd);
  return loadTargets(env, cwd);
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
