import path from 'node:path';
import { cacheRoot } from './cache.js';
import { listStates, stopRun } from './run-state.js';
import { describeError, isAlive, stderrLogger } from './util.js';

const USAGE = `usage: npx tsx targets/unleash/stop.ts [--list] [NAME|RUN_DIR|TARGET_FILE ...]

Stops Unleash targets started with start.ts --keep (or left behind by a start.ts
that was killed): stops Unleash and PostgreSQL and deletes the run's temp dir.
With no argument it stops every recorded run whose owner is gone or that was kept;
an argument selects runs by name (e.g. unleash-8.2.0), run dir or target file.`;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const listOnly = argv.includes('--list');
  const selectors = argv.filter((a) => !a.startsWith('--'));
  const root = cacheRoot();
  const states = listStates(root);

  if (listOnly) {
    for (const s of states) {
      const owner = s.keep ? 'kept' : isAlive(s.ownerPid) ? `owned by pid ${s.ownerPid}` : 'owner gone';
      process.stdout.write(`${s.name}\t${s.baseUrl ?? '-'}\t${s.runDir}\t${owner}\n`);
    }
    return;
  }

  const matches = (s: (typeof states)[number], sel: string) =>
    s.name === sel ||
    s.id === sel ||
    path.resolve(sel) === s.runDir ||
    (s.targetFile !== undefined && path.resolve(sel) === s.targetFile);
  const chosen =
    selectors.length > 0
      ? states.filter((s) => selectors.some((sel) => matches(s, sel)))
      : // A run whose start.ts is still alive is stopped by that process itself (Ctrl-C).
        states.filter((s) => s.keep || !isAlive(s.ownerPid) || s.ownerPid === process.pid);

  if (chosen.length === 0) {
    process.stderr.write(selectors.length > 0 ? `error: no recorded run matches ${selectors.join(' ')}\n` : 'nothing to stop\n');
    process.exit(selectors.length > 0 ? 1 : 0);
  }
  let failed = false;
  for (const s of chosen) {
    try {
      await stopRun(root, s, stderrLogger);
      process.stdout.write(`stopped ${s.name} (${s.baseUrl ?? 'not started'}) and removed ${s.runDir}\n`);
    } catch (error) {
      failed = true;
      process.stderr.write(`${describeError(error)}\n`);
    }
  }
  if (failed) process.exit(1);
}

void main();
