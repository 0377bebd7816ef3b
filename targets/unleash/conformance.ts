import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkedReport, readJsonFile } from '../../readers/report-file.ts';
import { renderConformancePage } from '../../reporters/markdown.ts';
import { checkClaims } from './claims.ts';
import { handleSignals, isInterrupted, log, run } from './supervisor.ts';
import { type Run, startRun } from './unleash.ts';

const USAGE = `usage: npm run conformance:unleash -- [<version> ...] [--docs] [--claims] [--no-seed] [--report-dir DIR] [-- <playwright options>]

Starts each unleash-server version (default 8.2.0) on its own PostgreSQL, one after the other, provisions
them, runs the suite against all of them side by side (one target file each, with the version's known
deviations), stops everything and exits with the suite's code. Given two versions or more, it then prints the
diff of each version's evidence bundle against the one of the version before it (oldest first), which does
not change the exit code. --docs rewrites
docs/unleash/conformance-<version>.md from each version's conformance.json. --claims then runs the suite
against each given its admin token alone, with the claim narrowed (a pass) and whole (no verdict, exit code 3),
and fails when either ends otherwise. --no-seed writes no project owners.`;

const ROOT = path.join(__dirname, '../../');

interface Args {
  versions: string[];
  docs: boolean;
  claims: boolean;
  seed: boolean;
  reportDir: string;
  playwright: string[];
}

function parseArgs(argv: string[]): Args {
  const split = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const args: Args = {
    versions: [],
    docs: false,
    claims: false,
    seed: true,
    reportDir: path.join(ROOT, 'conformance-report', 'unleash'),
    playwright: argv.slice(split + 1),
  };
  for (let i = 0; i < split; i++) {
    const arg = argv[i];
    if (arg === '--docs') args.docs = true;
    else if (arg === '--claims') args.claims = true;
    else if (arg === '--no-seed') args.seed = false;
    else if (arg === '--report-dir' && argv[i + 1]) args.reportDir = path.resolve(argv[++i]);
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else args.versions.push(arg);
  }
  if (args.versions.length === 0) args.versions.push('8.2.0');
  return args;
}

/** The version's page: the suite's conformance page of its run, every clause's status, and ports hidden. */
function writePage(reportDir: string, target: Run): void {
  const where = path.join(reportDir, 'targets', target.name, 'conformance.json');
  const report = checkedReport(readJsonFile(where), where);
  const statuses = [
    '',
    '## Every clause',
    '',
    '| clause | level | status |',
    '|---|---|---|',
    ...report.clauses.map((c) => `| \`${c.id}\` | ${c.level} | ${c.status} |`),
    '',
  ];
  const page = `# Unleash ${target.version}: conformance\n\n${renderConformancePage(report)}${statuses.join('\n')}`;
  const file = path.join(ROOT, 'docs', 'unleash', `conformance-${target.version}.md`);
  writeFileSync(file, page.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:$PORT'));
  log(`wrote ${path.relative(ROOT, file)}`);
}

/** The evidence bundle of a version's run, where a run of several targets writes it. */
const bundleOf = (reportDir: string, target: Run) => path.join(reportDir, 'targets', target.name, 'evidence.tar.gz');

/**
 * Each version against the one before it, oldest first (7.6.5 before 8.2.0, 6.9.0 before 6.10.1): what changed,
 * clause by clause, as `diff` says it of their evidence bundles. What the suite found is its exit code; a diff
 * between two versions of Unleash is what a reader wants to know, not a verdict.
 */
async function printDiffs(reportDir: string, runs: Run[], command: string): Promise<void> {
  const ordered = [...runs].sort((a, b) => a.version.localeCompare(b.version, 'en', { numeric: true }));
  for (const [i, target] of ordered.entries()) {
    const before = ordered[i - 1];
    if (before === undefined || isInterrupted()) continue;
    const [old, neu] = [bundleOf(reportDir, before), bundleOf(reportDir, target)];
    const missing = [old, neu].find((bundle) => !existsSync(bundle));
    if (missing !== undefined) {
      log(`no diff of ${before.version} and ${target.version}: the run left no ${missing}`);
      continue;
    }
    log(`what changed from ${before.version} to ${target.version}:`);
    const { code } = await run(process.execPath, [command, 'diff', old, neu], { cwd: ROOT, stdio: 'inherit' });
    if (code > 1) log(`the diff of ${before.version} and ${target.version} ended with exit code ${code}`);
  }
}

async function main(args: Args): Promise<number> {
  handleSignals();
  const runs: Run[] = [];
  try {
    for (const version of args.versions) runs.push(await startRun(version, { seed: args.seed }));
    const env = { ...process.env, CONFORMANCE_REPORT_DIR: args.reportDir, CONFORMANCE_TARGETS: runs.map((r) => r.targetFile).join(',') };
    // Unleash listens on loopback: a proxy of the machine's would only carry the requests away from it.
    for (const variable of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete (env as NodeJS.ProcessEnv)[variable];
    const command = path.join(ROOT, 'bin', 'admin-api-conformance.js');
    const { code } = await run(process.execPath, [command, '--', ...args.playwright], { cwd: ROOT, env, stdio: 'inherit' });
    if (args.docs && !isInterrupted()) for (const target of runs) writePage(args.reportDir, target);
    await printDiffs(args.reportDir, runs, command);
    if (!args.claims || isInterrupted()) return code;
    const failures: string[] = [];
    for (const target of runs) failures.push(...(await checkClaims(target, command, ROOT)));
    for (const failure of failures) process.stderr.write(`conformance:unleash: ${failure}\n`);
    return failures.length > 0 && code === 0 ? 1 : code;
  } finally {
    for (const target of runs) await target.stop();
  }
}

function exit(code: number, error?: Error): void {
  // After a signal the handler stops everything and exits 130 or 143; what ended then ended because it was stopped.
  if (isInterrupted()) return;
  if (error) process.stderr.write(`conformance:unleash: ${error.message}\n`);
  process.exit(code);
}

Promise.resolve()
  .then(() => main(parseArgs(process.argv.slice(2))))
  .then(
    (code) => exit(code),
    (error: Error) => exit(2, error),
  );
