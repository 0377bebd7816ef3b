import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkedReport, readJsonFile } from '../../readers/report-file.ts';
import type { ClauseStatus, ConformanceReport } from '../../reporters/conformance-result.ts';

// Where the sweep keeps its page and its runs, the notes the page opens with (made from what the sweep kept), and
// the one `trend` command line that draws the page: the sweep runs it, and a self-test runs it again to check that
// the committed page and notes are exactly what they are made from.

export const ROOT = path.join(__dirname, '../../');
export const DOCS = path.join(ROOT, 'docs', 'unleash');
/** One folder per run: the version, or the version and `-strict-schema` for the run with Unleash's strict validation. */
export const RUNS = path.join(DOCS, 'runs');
export const PAGE = path.join(DOCS, 'versions.md');
/** What the sweep found besides the grid (each release's Node.js, what it could not be given, the second oracle), put on the page as it is. */
export const NOTES = path.join(DOCS, 'notes.md');

export const TITLE = 'Unleash: conformance from release to release';
/** The release judged twice, the second time with Unleash's strict response validation. */
export const STRICT = '8.2.0';
export const STRICT_LABEL = `${STRICT}-strict-schema`;

/** How one release went, as the sweep keeps it beside its report (`sweep.json`), or alone when it could not be judged. */
export interface Outcome {
  label: string;
  node?: string;
  exitCode?: number;
  missing: string[];
  /** Why the release could not be judged here. */
  problem?: string;
}

const byVersion = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** Every release's outcome kept, oldest first. */
export function keptOutcomes(): Outcome[] {
  return readdirSync(RUNS)
    .filter((label) => existsSync(path.join(RUNS, label, 'sweep.json')))
    .sort(byVersion)
    .map((label) => JSON.parse(readFileSync(path.join(RUNS, label, 'sweep.json'), 'utf8')) as Outcome);
}

/** The arguments of `admin-api-conformance trend` that write the page, relative to the project's root. */
export function pageArgs(): string[] {
  // Oldest first, and of one release the plain run before the strict one: trend compares a release with the one before.
  const runs = readdirSync(RUNS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(RUNS, d.name, 'conformance.json')))
    .map((d) => d.name)
    .sort(byVersion)
    .map((name) => path.relative(ROOT, path.join(RUNS, name, 'conformance.json')));
  return [...runs, '--title', TITLE, '--notes', path.relative(ROOT, NOTES)];
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

const FAILING: (ClauseStatus | undefined)[] = ['failed', 'known-deviation', 'errored'];

/** Clauses about 401, 403 and 404 answers and the OpenAPI description: Unleash's strict validation checks only the two operations' 200s. */
const UNCHECKED = /^(auth|error)\.|\.observe\.(unknown-secret|description-drift)$/;

/** This suite's word on a clause, and Unleash's strict validation's, and whether they agree. */
function oracleRow(id: string, level: string, status: ClauseStatus, strict: ClauseStatus | undefined): string {
  const suiteFails = FAILING.includes(status);
  const suite = suiteFails ? `departs from the document (${status})` : status === 'passed' ? 'meets the document' : `no verdict (${status})`;
  if (UNCHECKED.test(id)) return `| \`${id}\` | ${level} | ${suite} | not checked: it validates only the operations' 200 answers | — |`;
  const changed = strict !== status;
  const unleash = changed ? `refuses its own answer: ${strict ?? 'absent'} under strict validation` : 'accepts its own answers (the same outcome)';
  const agree =
    status !== 'passed' && !suiteFails
      ? '—'
      : changed === suiteFails
        ? 'agree'
        : changed
          ? "differ: Unleash's schema refuses what the document allows"
          : "differ: the document asks more than Unleash's schema";
  return `| \`${id}\` | ${level} | ${suite} | ${unleash} | ${agree} |`;
}

/**
 * Unleash's strict validation against this suite, clause by clause. Strict validation turns a 200 whose body
 * breaks Unleash's own schema into a 500: a clause whose outcome is the same in both runs got answers Unleash's
 * schema accepts; one whose outcome changed got a 500 where its plain run got a 200.
 */
export function oracleRows(plain: ConformanceReport, strict: ConformanceReport): string[] {
  const later = new Map(strict.clauses.map((c) => [c.id, c.status]));
  return plain.clauses.map((c) => oracleRow(c.id, c.level, c.status, later.get(c.id)));
}

function oracle(): string[] {
  const at = (label: string) => path.join(RUNS, label, 'conformance.json');
  if (!existsSync(at(STRICT)) || !existsSync(at(STRICT_LABEL))) return ['The second oracle was not run: no runs of both kinds are kept.', ''];
  const [plain, strict] = [STRICT, STRICT_LABEL].map((label) => checkedReport(readJsonFile(at(label)), at(label)));
  const rows = oracleRows(plain, strict);
  const count = (word: string) => rows.filter((r) => r.endsWith(`| ${word} |`) || r.includes(`| ${word}:`)).length;
  return [
    `## A second oracle: Unleash's own schema (${STRICT})`,
    '',
    `With \`UNLEASH_STRICT_SCHEMA_VALIDTION=true\` (sic), Unleash checks each 200 of the two operations against its own`,
    'schema before sending it (`respondWithValidation` in `src/lib/services/openapi-service.ts`, called by the projects',
    'and public-signup controllers) and answers 500 where the body breaks it; its 401, 403 and 404 answers are not',
    `checked. Of ${rows.length} clauses, ${count('agree')} agree, ${count('differ')} differ, and the rest have no verdict of one of the two:`,
    '',
    "| clause | level | this suite (plain run) | Unleash's strict validation | |",
    '|---|---|---|---|---|',
    ...rows,
    '',
  ];
}

/** The notes the page opens with: how the sweep ran, each release's Node.js, what it could not be given, what could not run, and the second oracle. */
export function sweepNotes(outcomes: Outcome[] = keptOutcomes()): string {
  return [
    'Drawn by `npm run sweep:unleash` (targets/unleash/sweep.ts), which installs each release of `unleash-server`',
    'from npm, starts it on its own PostgreSQL 15 with the Node.js its `engines` field asks for, provisions every',
    'input the release can give through its own API, and runs the suite with the claim the Unleash tooling prints',
    'for it (`npm run target:unleash -- <version>`), the version read from the target',
    '(`CONFORMANCE_READ_PRODUCT_VERSION=unleash`) and the known deviations of',
    '[targets/unleash/deviations.yaml](../../targets/unleash/deviations.yaml), each of which names its versions.',
    'This page is `admin-api-conformance trend` of the runs kept in [runs/](runs/) (ports written as 4242), these',
    'notes made from the same runs; `npm run sweep:unleash -- --page` draws both again.',
    '',
    '| release | Node.js | exit code | not provided by this release |',
    '|---|---|---|---|',
    ...outcomes.map(
      (o) => `| ${o.label} | ${o.node ?? ''} | ${o.problem ? `not judged: ${cell(o.problem.split('\n')[0])}` : o.exitCode} | ${cell(o.missing.join('; '))} |`,
    ),
    '',
    ...oracle(),
  ].join('\n');
}
