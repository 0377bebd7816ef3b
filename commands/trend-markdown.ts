import { markdownCode, markdownLink, markdownText } from '../reporters/escape.ts';
import type { ClauseStatus } from '../reporters/conformance-result.ts';
import { KINDS } from '../reporters/diff-output.ts';
import type { Trend } from './trend.ts';

// A trend as a Markdown page: the grid of clauses by version, where each changed, the profiles each version
// meets, the known deviations, and two runs of one version side by side. A pure function of the trend.

/** Each status in a grid's cell: short, and failing ones in bold, so that a column reads at a glance. */
const CELL: Record<ClauseStatus, string> = {
  passed: 'pass',
  failed: '**FAIL**',
  errored: '**error**',
  'known-deviation': 'deviation',
  'not-exercised': 'not ex.',
  'not-judged': 'not judged',
  observed: 'observed',
};

const KIND_WORDS = new Map(KINDS);

/** A reason cut to what a table's cell holds. */
const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

const cellOf = (status: ClauseStatus | undefined) => (status === undefined ? 'absent' : CELL[status]);
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const head = (cells: string[]) => [row(cells), row(cells.map(() => '---'))];

function summary(t: Trend): string[] {
  return [
    ...head(['version', 'version from', 'target', 'verdict', 'claim', 'MUST failed', 'known deviations']),
    ...t.columns.map((c, i) => {
      const statuses = t.rows.filter((r) => r.level === 'MUST').map((r) => r.statuses[i]);
      const count = (s: ClauseStatus) => String(statuses.filter((x) => x === s).length);
      return row([
        markdownText(c.label),
        c.versionFrom,
        markdownCode(c.target, true),
        c.verdict,
        markdownText(c.claim.join(', ')),
        count('failed'),
        count('known-deviation'),
      ]);
    }),
  ];
}

function grid(t: Trend): string[] {
  return [
    ...head(['clause', 'level', ...t.columns.map((c) => markdownText(c.label)), 'changed at']),
    ...t.rows.map((r) =>
      row([
        markdownCode(r.id, true),
        r.level,
        ...r.statuses.map(cellOf),
        r.changes.length === 0 ? '' : r.changes.map((c) => `${markdownText(c.at)}: ${cellOf(c.from)} → ${cellOf(c.to)}`).join('; '),
      ]),
    ),
  ];
}

function firstChanges(t: Trend): string[] {
  const changed = t.rows.filter((r) => r.changes.length > 0);
  if (changed.length === 0) return ['No clause changed its outcome between the versions.'];
  return [
    ...head(['clause', 'first changed at', 'from', 'to', 'how', 'changed again at']),
    ...changed.map((r) => {
      const [first, ...later] = r.changes;
      return row([
        markdownCode(r.id, true),
        markdownText(first.at),
        cellOf(first.from),
        cellOf(first.to),
        markdownText(`${KIND_WORDS.get(first.kind) ?? first.kind}${first.why ? `: ${cut(first.why)}` : ''}`),
        markdownText(later.map((c) => `${c.at} (${KIND_WORDS.get(c.kind) ?? c.kind})`).join(', ')),
      ]);
    }),
  ];
}

function profiles(t: Trend): string[] {
  return [
    ...head(['profile', ...t.columns.map((c) => markdownText(c.label))]),
    ...t.profiles.map((p) => row([p, ...t.columns.map((c) => c.profiles[p] ?? 'absent')])),
  ];
}

function deviations(t: Trend): string[] {
  if (t.deviations.length === 0) return ['No run rests on a known deviation.'];
  return [
    ...head(['clause', 'versions named', 'excused a failure at', 'why, and the sources that explain it']),
    ...t.deviations.map((d) =>
      row([
        markdownCode(d.clause, true),
        markdownText(d.versions ?? 'every version'),
        markdownText(d.appliedAt.join(', ') || 'none (no longer needed where applied)'),
        `${markdownText(d.reason)}${d.link ? ` ${markdownLink('source', d.link)}` : ''}`,
      ]),
    ),
  ];
}

function pairs(t: Trend): string[] {
  return t.pairs.flatMap((p) => [
    `### ${markdownText(p.version)}: ${markdownCode(p.runs[0])} and ${markdownCode(p.runs[1])}`,
    '',
    `${p.agree} clauses have one outcome in both runs; ${p.differ.length} differ.`,
    '',
    ...(p.differ.length === 0
      ? []
      : [
          ...head(['clause', markdownCode(p.runs[0], true), markdownCode(p.runs[1], true)]),
          ...p.differ.map((d) => row([markdownCode(d.id, true), cellOf(d.statuses[0]), cellOf(d.statuses[1])])),
        ]),
    '',
  ]);
}

/** A section of the page: its heading, its lines, and the blank lines around them. */
const section = (heading: string, body: string[]): string[] => [`## ${heading}`, '', ...body, ''];

/** The page: `notes` (Markdown of the caller's, such as what could not be run) after the title, then every section. */

export function trendMarkdown(t: Trend, options: { title?: string; notes?: string } = {}): string {
  const title = options.title ?? `${t.product || 'The product'}: conformance over ${t.columns.length} runs`;
  const lines = [
    `# ${markdownText(title)}`,
    '',
    ...(options.notes ? [options.notes.trim(), ''] : []),
    ...section('The runs', summary(t)),
    ...section('Where each clause first changed', firstChanges(t)),
    ...section('Profiles met', profiles(t)),
    ...section('Known deviations', deviations(t)),
    ...(t.pairs.length === 0 ? [] : ['## Two runs of one version, clause by clause', '', ...pairs(t)]),
    ...section('Every clause at every version', [
      `Cells: ${Object.values(CELL).join(', ')}; absent: the run's catalogue did not have the clause.`,
      '',
      ...grid(t),
    ]),
  ];
  return `${lines.join('\n')}`;
}
