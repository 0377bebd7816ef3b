import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

// Where the sweep keeps its page and its runs, and the one `trend` command line that draws the page from them:
// the sweep runs it, and a self-test runs it again to check that the committed page is exactly its output.

export const ROOT = path.join(__dirname, '../../');
export const DOCS = path.join(ROOT, 'docs', 'unleash');
/** One folder per run: the version, or the version and `-strict-schema` for the run with Unleash's strict validation. */
export const RUNS = path.join(DOCS, 'runs');
export const PAGE = path.join(DOCS, 'versions.md');
/** What the sweep found besides the runs (what could not be provisioned, and why), put on the page as it is. */
export const NOTES = path.join(DOCS, 'notes.md');

export const TITLE = 'Unleash: conformance from release to release';

/** The arguments of `admin-api-conformance trend` that write the page, relative to the project's root. */
export function pageArgs(): string[] {
  const runs = readdirSync(RUNS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(RUNS, d.name, 'conformance.json')))
    .map((d) => path.relative(ROOT, path.join(RUNS, d.name, 'conformance.json')))
    .sort();
  return [...runs, '--title', TITLE, '--notes', path.relative(ROOT, NOTES)];
}
