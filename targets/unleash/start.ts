import { readFileSync } from 'node:fs';
import { handleSignals, isInterrupted, log } from './supervisor.ts';
import { startRun } from './unleash.ts';

const USAGE = `usage: npm run target:unleash -- <version> [--keep] [--no-seed]

Starts unleash-server <version> (8.2.0, 6.10.1, 7.x, ...) on its own PostgreSQL, provisions it, and prints
CONFORMANCE_TARGET=<target file> and the file, whose deviations are the version's known ones. Runs until
SIGINT or SIGTERM, then stops everything it started. --keep exits at once instead, leaving Unleash and
PostgreSQL running, and prints the one command that stops that run. --no-seed writes no project owners.`;

async function main(args: string[]): Promise<void> {
  const version = args.find((a) => !a.startsWith('-'));
  if (!version || args.some((a) => a.startsWith('-') && a !== '--keep' && a !== '--no-seed')) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  handleSignals();
  const startedAt = Date.now();
  const run = await startRun(version, { seed: !args.includes('--no-seed') });
  log(`ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; its folder ${run.folder} holds unleash.log and pg/postgres.log`);
  process.stdout.write(`CONFORMANCE_TARGET=${run.targetFile}\n${readFileSync(run.targetFile, 'utf8')}`);
  if (args.includes('--keep')) {
    run.keep();
    log('--keep: Unleash and PostgreSQL keep running; this stops them and removes the folder, and touches nothing else:');
    process.stderr.write(`${run.stopCommand()}\n`);
    return;
  }
  log('running until Ctrl-C or SIGTERM');
  const unleash = run.unleash!;
  unleash.ref();
  unleash.on('exit', () => {
    if (isInterrupted()) return;
    log(`Unleash exited by itself; see ${run.folder}/unleash.log`);
    void run.stop().finally(() => process.exit(1));
  });
}

main(process.argv.slice(2)).catch((error: Error) => {
  // After a signal the handler stops everything and exits; what failed then failed because it was stopped.
  if (isInterrupted()) return;
  process.stderr.write(`target:unleash: ${error.message}\n`);
  process.exit(1);
});
