import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from './run-suite.ts';

// A copy of the suite with some of its files edited, as the suite's next version would have them (a new text
// of the document and the contracts written from it): a run of it is a run judged by that text, in a child
// process like any run. Its packages are this suite's, linked.

/** What a run needs of the suite: the command, the Playwright suite and everything it loads. */
const RUN_NEEDS = [
  'bin',
  'package.json',
  'tsconfig.json',
  'playwright.config.ts',
  'tests',
  'run',
  'harness',
  'checks',
  'reporters',
  'commands',
  'readers',
  'contracts',
  'reference-server',
];

/** Copies the suite into a folder of its own and edits its files, each by its path in the suite; the copy's command. */
export function suiteCopy(edits: Record<string, (text: string) => string>): { root: string; command: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'conformance-suite-copy-'));
  for (const entry of RUN_NEEDS) cpSync(path.join(PROJECT_ROOT, entry), path.join(root, entry), { recursive: true });
  symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  for (const [file, edit] of Object.entries(edits)) {
    const before = readFileSync(path.join(root, file), 'utf8');
    const after = edit(before);
    if (after === before) throw new Error(`the edit left ${file} as it was`);
    writeFileSync(path.join(root, file), after);
  }
  return { root, command: path.join(root, 'bin', 'admin-api-conformance.js') };
}
