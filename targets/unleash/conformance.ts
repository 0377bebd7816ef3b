import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { renderConformancePage } from '../../reporters/markdown.ts';
import { type StartedUnleash, startUnleash } from './index.js';
import { describeError } from './util.js';

const USAGE = `usage: npm run conformance:unleash -- [<version> ...] [--report-dir DIR] [--docs] [--no-seed] [-- <playwright options>]

Starts each real Unleash version on its own PostgreSQL, provisions it, runs the suite against all of
them side by side, and stops everything. Default version: 8.2.0. Known deviations come from
targets/unleash/deviations/<version>.yaml. --docs rewrites docs/unleash/conformance-<version>.md.
Project owners, which the open-source edition has no HTTP API for, are seeded in its database
(docs/unleash/README.md says why that is sound); --no-seed leaves them out.`;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEVIATIONS_DIR = path.join(ROOT, 'targets', 'unleash', 'deviations');

interface Args {
  versions: string[];
  reportDir: string;
  docs: boolean;
  seed: boolean;
  playwrightArgs: string[];
}

function parseArgs(argv: string[]): Args {
  const split = argv.indexOf('--');
  const own = split < 0 ? argv : argv.slice(0, split);
  const args: Args = { versions: [], reportDir: path.join(ROOT, 'conformance-report', 'unleash'), docs: false, seed: true, playwrightArgs: split < 0 ? [] : argv.slice(split + 1) };
  for (let i = 0; i < own.length; i++) {
    if (own[i] === '--docs') args.docs = true;
    else if (own[i] === '--no-seed') args.seed = false;
    else if (own[i] === '--report-dir') args.reportDir = path.resolve(own[++i] ?? '');
    else if (own[i] === '-h' || own[i] === '--help') (process.stdout.write(`${USAGE}\n`), process.exit(0));
    else if (own[i].startsWith('-')) throw new Error(`unknown option ${own[i]}`);
    else args.versions.push(own[i]);
  }
  if (args.versions.length === 0) args.versions.push('8.2.0');
  return args;
}

/** The target file the start script wrote, with the version's known deviations added. */
function withDeviations(unleash: StartedUnleash): string {
  const file = path.join(DEVIATIONS_DIR, `${unleash.version}.yaml`);
  if (existsSync(file)) appendFileSync(unleash.targetFile, `deviations: ${JSON.stringify(file)}\n`);
  return unleash.targetFile;
}

function runSuite(targetFiles: string[], reportDir: string, extra: string[]): Promise<number> {
  const env = { ...process.env, CONFORMANCE_REPORT_DIR: reportDir, CONFORMANCE_TARGETS: targetFiles.join(',') };
  const cli = path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  const child = spawn(process.execPath, [cli, 'test', ...extra], { cwd: ROOT, env, stdio: 'inherit' });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

function writeDocs(reportDir: string, started: StartedUnleash[]): void {
  for (const unleash of started) {
    const file = path.join(reportDir, 'targets', unleash.name, 'conformance.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
    const page = path.join(ROOT, 'docs', 'unleash', `conformance-${unleash.version}.md`);
    mkdirSync(path.dirname(page), { recursive: true });
    // Ports and run-specific secrets change every run; the page keeps what a reader needs.
    writeFileSync(page, `# Unleash ${unleash.version}: conformance\n\n${renderConformancePage(report).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:$PORT')}`);
    process.stderr.write(`wrote ${path.relative(ROOT, page)}\n`);
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const started: StartedUnleash[] = [];
  try {
    for (const version of args.versions) started.push(await startUnleash(version, { seedDatabase: args.seed }));
    const code = await runSuite(started.map(withDeviations), args.reportDir, args.playwrightArgs);
    if (args.docs) writeDocs(args.reportDir, started);
    return code;
  } finally {
    for (const unleash of started) await unleash.stop();
  }
}

main().then((code) => process.exit(code), (error) => {
  process.stderr.write(`conformance:unleash: ${describeError(error)}\n`);
  process.exit(2);
});
