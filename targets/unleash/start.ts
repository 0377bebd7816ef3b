import fs from 'node:fs';
import { type StartedUnleash, startUnleash } from './index.js';
import { describeError, isAlive, stderrLogger, tailFile } from './util.js';

const USAGE = `usage: npx tsx targets/unleash/start.ts <version> [--keep] [--target-file PATH]

  <version>           unleash-server version or npm range, e.g. 8.2.0, 7.x, 6.10.1
  --keep              start, provision, print the target and exit, leaving Unleash and
                      PostgreSQL running; stop them later with targets/unleash/stop.ts
  --target-file PATH  also write the target YAML to PATH (default: in the run's temp dir)

Without --keep it runs until SIGINT/SIGTERM and then stops everything it started.
stdout gets "CONFORMANCE_TARGET=<path>" followed by the target YAML; progress goes to stderr.`;

interface Args {
  version: string;
  keep: boolean;
  targetFile?: string;
}

function parseArgs(argv: string[]): Args {
  let version: string | undefined;
  let keep = false;
  let targetFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--keep') keep = true;
    else if (arg === '--target-file') {
      targetFile = argv[++i];
      if (!targetFile) throw new Error('--target-file needs a path');
    } else if (arg.startsWith('--target-file=')) targetFile = arg.slice('--target-file='.length);
    else if (arg === '-h' || arg === '--help') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else if (version === undefined) version = arg;
    else throw new Error(`unexpected argument ${arg}`);
  }
  if (!version) throw new Error('missing <version>');
  return { version, keep, targetFile };
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }

  const log = stderrLogger;
  const startup = new AbortController();
  let started: StartedUnleash | undefined;
  let stopping = false;
  let exitCode = 0;
  const shutdown = (code: number, why: string) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    log(why);
    if (!started) {
      // startUnleash stops whatever it already started, then rejects; main() exits there.
      startup.abort();
      return;
    }
    started
      .stop()
      .catch((error) => process.stderr.write(`${describeError(error)}\n`))
      .finally(() => process.exit(code));
  };
  const onSigint = () => shutdown(130, 'received SIGINT; stopping');
  const onSigterm = () => shutdown(143, 'received SIGTERM; stopping');
  const onSighup = () => shutdown(129, 'received SIGHUP; stopping');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  process.on('SIGHUP', onSighup);

  try {
    started = await startUnleash(args.version, {
      keep: args.keep,
      targetFile: args.targetFile,
      log,
      handleSignals: false,
      signal: startup.signal,
    });
  } catch (error) {
    if (stopping) {
      log('startup interrupted; everything started so far has been stopped');
      process.exit(exitCode);
    }
    process.stderr.write(`${describeError(error)}\n`);
    process.exit(1);
  }
  if (stopping) {
    // The signal came after startup's last checkpoint.
    await started.stop().catch((error) => process.stderr.write(`${describeError(error)}\n`));
    process.exit(exitCode);
  }

  const t = started.timings;
  log(
    `ready in ${(t.totalMs / 1000).toFixed(1)}s (install ${(t.installMs / 1000).toFixed(1)}s, postgres ${(t.postgresMs / 1000).toFixed(1)}s, ` +
      `unleash boot ${(t.unleashBootMs / 1000).toFixed(1)}s, provisioning ${(t.provisionMs / 1000).toFixed(1)}s)`,
  );
  for (const note of started.provisioned.notes) log(`note: ${note}`);
  if (started.provisioned.forbiddenCredential) log(`forbiddenToken is the ${started.provisioned.forbiddenCredential}`);
  log(`run dir: ${started.runDir} (unleash.log, pg/postgres.log, provisioned.json)`);
  process.stdout.write(`CONFORMANCE_TARGET=${started.targetFile}\n`);
  process.stdout.write(fs.readFileSync(started.targetFile, 'utf8'));

  if (args.keep) {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    process.off('SIGHUP', onSighup);
    log('--keep: leaving Unleash and PostgreSQL running; stop them with: npx tsx targets/unleash/stop.ts');
    return;
  }

  log('running; press Ctrl-C (or send SIGTERM) to stop');
  const pid = started.unleashPid;
  const launchers = launcherChain();
  // Keeps the event loop alive, and notices if Unleash or whoever launched us goes away.
  setInterval(() => {
    if (stopping) return;
    if (!isAlive(pid)) {
      process.stderr.write(`error: Unleash exited unexpectedly\n${tailFile(started!.logs.unleash, 20)}\n`);
      shutdown(1, 'cleaning up');
      return;
    }
    const gone = launchers.find((l) => !isAlive(l));
    if (gone !== undefined) shutdown(143, `launching process ${gone} exited; stopping`);
  }, 1_000);
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in field 2 may contain spaces; the fields after its closing parenthesis do not.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * The wrapper processes between us and the caller (tsx's launcher, and npx's
 * \`npm exec\` and \`sh -c\` when started with npx). \`npm exec\` exits on SIGTERM
 * without passing it on, so a caller that kills the npx process it spawned would
 * otherwise leave this run, and its servers, behind.
 */
function launcherChain(): number[] {
  const chain: number[] = [];
  let pid = parentOf(process.pid);
  for (let depth = 0; pid !== undefined && depth < 4; depth++) {
    const cmd = commandLine(pid);
    if (!/\btsx\b|npm exec|\bnpx\b|^sh -c/.test(cmd)) break;
    chain.push(pid);
    pid = parentOf(pid);
  }
  return chain;
}

void main();
