import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { handleSignals, isInterrupted, log, run } from './supervisor.ts';
import { NOTES, type Outcome, PAGE, pageArgs, ROOT, RUNS, STRICT, sweepNotes } from './sweep-page.ts';
import { type Run, startRun } from './unleash.ts';

const USAGE = `usage: npm run sweep:unleash -- [<version> ...] [--page]

Judges every listed unleash-server release (default: all of RELEASES below), one after the other, each on its
own PostgreSQL with every input its version allows, on the Node.js its engines field asks for, and the newest
once more with Unleash's strict response validation. Installs are cached (~/.cache/admin-api-conformance).
Each run's conformance.json is kept in docs/unleash/runs/<version>/, what could not be run in
docs/unleash/notes.md, and the page docs/unleash/versions.md is drawn from them by admin-api-conformance trend.
--page only draws the page again from the runs kept. Prints its wall time.`;

/** The releases of unleash-server on npm that have the two endpoints, and 4.2.2, which has no invite-link route. */
export const RELEASES = ['4.2.2', '4.19.5', '5.6.0', '5.8.2', '5.11.3', '5.12.8', '6.3.0', '6.4.1', '6.6.0', '6.10.1', '7.4.1', '7.5.1', '7.6.5', '8.2.0'];

const COMMAND = path.join(ROOT, 'bin', 'admin-api-conformance.js');

const nodeVersion = (bin: string | undefined) => (bin ? execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim() : undefined);

/** The run's report, kept: its port (a new one each run) written as Unleash's default, so that a new sweep changes only what changed. */
function keep(reportDir: string, label: string): void {
  const folder = path.join(RUNS, label);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, 'conformance.json'),
    readFileSync(path.join(reportDir, 'conformance.json'), 'utf8').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:4242'),
  );
}

/** How a release went, kept beside its report (or alone, when it could not be judged): the notes are made of every one kept. */
function record(outcome: Outcome): Outcome {
  const folder = path.join(RUNS, outcome.label);
  mkdirSync(folder, { recursive: true });
  if (outcome.problem !== undefined) rmSync(path.join(folder, 'conformance.json'), { force: true });
  writeFileSync(path.join(folder, 'sweep.json'), `${JSON.stringify(outcome, null, 2)}\n`);
  return outcome;
}

async function judge(version: string, strict: boolean): Promise<Outcome> {
  const label = strict ? `${version}-strict-schema` : version;
  let target: Run | undefined;
  const reportDir = mkdtempSync(path.join(os.tmpdir(), `sweep-${label}-`));
  try {
    target = await startRun(version, { seed: true, strict });
    const env: NodeJS.ProcessEnv = { ...process.env, CONFORMANCE_TARGET: target.targetFile, CONFORMANCE_REPORT_DIR: reportDir };
    for (const variable of ['CONFORMANCE_TARGETS', 'HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete env[variable];
    const { code } = await run(process.execPath, [COMMAND], { cwd: ROOT, env });
    const node = nodeVersion(target.nodeBin);
    if (!existsSync(path.join(reportDir, 'conformance.json')))
      return record({ label, node, missing: target.missing, problem: `the run left no report (exit code ${code})` });
    keep(reportDir, label);
    log(`${label}: exit code ${code}`);
    return record({ label, node, exitCode: code, missing: target.missing });
  } catch (error) {
    const problem = (error as Error).message;
    log(`${label} could not be judged: ${problem}`);
    return record({ label, node: nodeVersion(target?.nodeBin), missing: target?.missing ?? [], problem });
  } finally {
    await target?.stop();
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** The notes, made from the runs kept, then the page drawn by trend from them. */
async function drawPage(): Promise<number> {
  writeFileSync(NOTES, sweepNotes());
  const { code } = await run(process.execPath, [COMMAND, 'trend', ...pageArgs(), '--out', path.relative(ROOT, PAGE)], { cwd: ROOT, stdio: 'inherit' });
  return code;
}

async function main(argv: string[]): Promise<number> {
  const started = Date.now();
  if (argv.some((a) => a.startsWith('-') && a !== '--page')) throw new Error(USAGE);
  if (argv.includes('--page')) return drawPage();
  handleSignals();
  const versions = argv.length > 0 ? argv : RELEASES;
  for (const version of versions) if (!isInterrupted()) await judge(version, false);
  if (versions.includes(STRICT) && !isInterrupted()) await judge(STRICT, true);
  const code = await drawPage();
  log(`the sweep of ${versions.length} releases took ${((Date.now() - started) / 60_000).toFixed(1)} minutes (wall time)`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (!isInterrupted()) process.exit(code);
  },
  (error: Error) => {
    if (isInterrupted()) return;
    process.stderr.write(`sweep:unleash: ${error.message}\n`);
    process.exit(2);
  },
);
