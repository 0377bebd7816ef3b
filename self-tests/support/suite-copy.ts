import { cpSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { commandEnv, PROJECT_ROOT, type SuiteRun } from './run-suite.ts';

// A copy of the suite with some of its files edited, as the suite's next version would have them (a new text
// of the document and the contracts written from it): a run of it is a run judged by that text. Its engine is
// loaded in this process from the copy's own files, so it reads the copy's document and contracts, never this
// suite's. Its packages are this suite's, linked, and already loaded: one undici, one ajv for both.

/** What a run needs of the suite: the engine and everything it loads. */
const RUN_NEEDS = ['package.json', 'tsconfig.json', 'run', 'harness', 'checks', 'reporters', 'readers', 'commands', 'contracts', 'reference-server'];

export interface SuiteCopy {
  root: string;
}

/** Copies the suite into a folder of its own and edits its files, each by its path in the suite. */
export function suiteCopy(edits: Record<string, (text: string) => string>): SuiteCopy {
  const root = mkdtempSync(path.join(os.tmpdir(), 'conformance-suite-copy-'));
  for (const entry of RUN_NEEDS) cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
  symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  for (const [file, edit] of Object.entries(edits)) {
    const before = readFileSync(path.join(root, file), 'utf8');
    const after = edit(before);
    if (after === before) throw new Error(`the edit left ${file} as it was`);
    writeFileSync(path.join(root, file), after);
  }
  return { root };
}

type Engine = typeof import('../../run/engine.ts');
const engines = new Map<string, Engine>();

/**
 * The copy's engine, from its own files, compiled by tsx (esbuild) while they load: Playwright's own transform,
 * which keys its cache by path, would compile every file of the copy afresh, several times slower. tsx's
 * namespaced require is no use here: it loads the packages again too, and undici refuses a second copy of itself.
 */
function engineOf(copy: SuiteCopy): Engine {
  if (!engines.has(copy.root)) {
    const tsx = require('tsx/cjs/api') as { register: () => () => void };
    const unregister = tsx.register();
    try {
      engines.set(copy.root, require(path.join(copy.root, 'run', 'engine.ts')) as Engine);
    } finally {
      unregister();
    }
  }
  return engines.get(copy.root)!;
}

/** Runs the copy as runSuite runs this suite in process: from a scratch folder, with only the variables given. */
export async function runCopy(copy: SuiteCopy, env: Record<string, string>): Promise<SuiteRun> {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-self-test-'));
  let [stdout, stderr] = ['', ''];
  const output = { out: (t: string) => void (stdout += t), err: (t: string) => void (stderr += t) };
  const started = Date.now();
  const variables = commandEnv({ ...env, CONFORMANCE_REPORT_DIR: reportDir }) as Record<string, string>;
  const result = await engineOf(copy).runConformance({ env: variables, cwd: reportDir, output });
  const file = path.join(reportDir, 'conformance.json');
  const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined;
  return { exitCode: result.exitCode, stdout, stderr, durationMs: Date.now() - started, pid: process.pid, reportDir, report };
}
