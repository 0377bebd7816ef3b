import type { ClauseResult, ReportView } from './conformance-result.ts';
import { markdownBlock, markdownCode, markdownLink, markdownText } from './escape.ts';
import { KINDS } from './diff-output.ts';
import { gateText } from './gate.ts';
import { historyLead } from './history-render.ts';
import { flakyLines } from './flaky-render.ts';
import { valueLines } from './observation-markdown.ts';
import { violationLine, violationText, type Marks } from '../harness/judging/violation-words.ts';
import {
  baselineText,
  claimText,
  documentText,
  exportPreamble,
  headline,
  isAbsoluteLink,
  NO_TARGET,
  profileStatusText,
  STATUS_LABEL,
  VERIFY_LINE,
  productText,
  reasonFirst,
  replayText,
  verdictText,
} from './sections.ts';

// Every quoted string is escaped for Markdown (escape.ts): the target writes field names, values, reasons and headers.
const cell = markdownText;
const code = (text: string) => markdownCode(text, true);
/** A violation's pieces in a table's cell, and in a list. */
const IN_TABLE: Marks = { code, value: cell, text: cell };
const IN_LIST: Marks = { code: (text) => markdownCode(text), value: cell, text: cell };

function firstViolation(clause: ClauseResult): string {
  const v = clause.evidence?.violations[0];
  return v ? violationLine(v, IN_TABLE) : cell(clause.reason ?? '');
}

/** An absolute link as a Markdown link; any other kept as given, as text, since it would break in a comment. */
const linkOf = (link: string | undefined) => (isAbsoluteLink(link) ? ` (${markdownLink('link', link!)})` : link ? ` (${markdownText(link)})` : '');

function table(title: string, rows: ClauseResult[], describe: (c: ClauseResult) => string): string[] {
  if (rows.length === 0) return [];
  // Many clauses for one reason (a run stopped, a refused configuration) are one line, not a row each.
  const reasons = new Set(rows.map(describe));
  if (rows.length > 3 && reasons.size === 1) return ['', `### ${title}`, '', `${rows.length} clauses, for one reason: ${[...reasons][0]}`];
  return ['', `### ${title}`, '', '| clause | section | detail |', '|---|---|---|', ...rows.map((c) => `| \`${c.id}\` | ${c.section} | ${describe(c)} |`)];
}

/** What changed since the baseline, every change in the order a reader wants them: what got worse first. */
function baselineSection(report: ReportView): string[] {
  const b = report.baseline;
  if (!b) return [];
  const rows = KINDS.flatMap(([kind, words]) =>
    b.changes.filter((c) => c.kind === kind).map((c) => `| ${words} | ${code(c.id)} | ${c.from ?? 'absent'} | ${c.to ?? 'absent'} | ${cell(c.why ?? '')} |`),
  );
  return [
    '',
    '### Since the baseline',
    '',
    `${cell(baselineText(b, report.target?.name))}.`,
    ...b.judgeChanged.flatMap((line) => ['', `> Another judge, ${cell(line)}: a change may be the judge's, not the target's.`]),
    ...(rows.length > 0 ? ['', '| change | clause | baseline | now | why |', '|---|---|---|---|---|', ...rows] : []),
  ];
}

/** A short Markdown summary, fit for a pull-request comment or a CI job summary. */
export function renderMarkdown(report: ReportView): string {
  const s = report.summary;
  const of = (status: string) => report.clauses.filter((c) => c.status === status);
  const gate = gateText(report);
  const lines = [
    `## Conformance: ${headline(report)}, ${verdictText(report)}`,
    '',
    ...reasonFirst(report).flatMap((e) => [`> ${cell(e.split('\n')[0])}`, '']),
    ...(gate ? [`> **${cell(gate)}**`, ''] : []),
    ...historyLead(report),
    `${report.target ? `Target **${cell(report.target.name)}** (${markdownCode(report.target.baseUrl)})` : cell(NO_TARGET.replace(/^./, (c) => c.toUpperCase()))}; suite ${report.suite.version}, contracts \`${report.suite.contractsHash}\`, ${new Date(report.startedAt).toISOString()}.`,
    '',
    `Product: ${cell(productText(report.product))}. Document: ${cell(documentText(report.document))}.`,
    ...(report.replay ? ['', `This is ${cell(replayText(report.replay, report.startedAt)!)}.`] : []),
    '',
    `Claim: ${cell(claimText(report.claim))}.`,
    '',
    '| profile | claimed | status | MUST passed | of | known deviations | needs |',
    '|---|---|---|---|---|---|---|',
    ...report.claim.byProfile.map(
      (p) =>
        `| \`${p.name}\` | ${p.claimed ? 'yes' : 'no'} | ${cell(profileStatusText(p))} | ${p.must.passed} | ${p.must.total} | ${p.must.knownDeviations} | ${cell(p.needs)} |`,
    ),
    '',
    `MUST clauses: ${s.must.passed} passed of ${s.must.total}; INFO observations: ${s.observed} of ${s.total - s.must.total}, never judged.`,
    '',
    '| | passed | failed | errored | not exercised | known deviations | not judged | observed | of |',
    '|---|---|---|---|---|---|---|---|---|',
    `| MUST | ${s.must.passed} | ${s.must.failed} | ${s.must.errored} | ${s.must.notExercised} | ${s.must.knownDeviations} | ${s.must.notJudged} | – | ${s.must.total} |`,
    `| INFO | – | – | ${s.errored - s.must.errored} | ${s.notExercised - s.must.notExercised} | – | ${s.notJudged - s.must.notJudged} | ${s.observed} | ${s.total - s.must.total} |`,
    ...table('Failed', of('failed'), firstViolation),
    ...table('Errored', of('errored'), (c) => cell((c.evidence?.unevaluable[0]?.reason ?? c.reason ?? '').split('\n')[0])),
    ...table('Known deviations', of('known-deviation'), (c) => `${cell(c.deviation!.reason)}${linkOf(c.deviation!.link)}`),
    ...table(
      'Deviations no longer needed',
      report.clauses.filter((c) => c.deviation?.state === 'no-longer-needed'),
      () => 'now passes: remove it from the deviations file',
    ),
    ...table(
      'Not exercised (MUST)',
      of('not-exercised').filter((c) => c.level === 'MUST'),
      (c) => cell(c.reason ?? ''),
    ),
    ...table(
      'Not judged in this run (MUST)',
      of('not-judged').filter((c) => c.level === 'MUST'),
      (c) => cell(c.reason ?? ''),
    ),
  ];
  lines.push(...flakyLines(report), ...baselineSection(report));
  const c = report.consistency;
  if (c)
    lines.push(
      '',
      `Repeat mode: ${c.rounds} rounds, ${c.consistent ? 'every request answered alike' : `**${c.inconsistent.length} request(s) answered differently**`}; ${Object.entries(
        c.latencyMs,
      )
        .map(([op, p]) => `${op} p50 ${p.p50} ms, p99 ${p.p99} ms`)
        .join('; ')}.`,
    );
  if (!report.completed) lines.push('', `The run did not complete: ${cell(report.errors[0] ?? 'interrupted')}`);
  if (report.target) lines.push('', `Check the evidence bundle, offline: ${markdownCode(VERIFY_LINE)}.`);
  return `${lines.join('\n')}\n`;
}

function evidenceOf(c: ClauseResult): string[] {
  const e = c.evidence;
  if (!e) return [c.reason ? `- ${cell(c.reason)}` : ''];
  return e.violations
    .slice(0, 3)
    .flatMap((v) => [
      `- ${markdownCode(`${v.request.method} ${v.request.path}`)} (${cell(v.request.credential)} credential) → **${v.request.status}**, ${markdownCode(v.request.contentType ?? 'no content-type')}`,
      `  - ${violationText(v, IN_LIST)}`,
      `  - reproduce: ${markdownCode(v.request.curl)}`,
      ...(v.request.bodyExcerpt ? ['  - body:', '', ...markdownBlock(v.request.bodyExcerpt, 'json', '    '), ''] : []),
    ]);
}

type DriftObservation = {
  description: Record<string, unknown>;
  operation?: string;
  differences: { at: string; kind: string; document: string; description: string }[];
};

const isDrift = (o: unknown): o is DriftObservation => typeof o === 'object' && o !== null && Array.isArray((o as DriftObservation).differences);

/** A description's drift as a list, one difference a line: the document's word, then the description's. */
function driftLines(c: ClauseResult, o: DriftObservation): string[] {
  const head = `- **${c.title}** (\`${c.id}\`): \`${JSON.stringify(o.description)}\`${o.operation ? `, ${o.operation}` : ''}; ${o.differences.length} difference(s)`;
  return [head, ...o.differences.map((d) => `  - \`${d.at}\` (${d.kind}): the document: ${cell(d.document)}; the description: ${cell(d.description)}`)];
}

function observationLines(report: ReportView): string[] {
  return report.clauses
    .filter((c) => c.level === 'INFO')
    .flatMap((c) => {
      const o = c.evidence?.observations;
      if (isDrift(o)) return driftLines(c, o);
      const { inline, lines } = valueLines(o ?? c.reason ?? null);
      return [`- **${c.title}** (\`${c.id}\`):${inline === undefined ? '' : ` ${inline}`}`, ...lines];
    });
}

/** A full conformance page: the summary, then every clause that did not pass with its evidence, then the observations. */
export function renderConformancePage(report: ReportView): string {
  const notPassed = report.clauses.filter((c) => c.status !== 'passed' && c.level === 'MUST');
  const sections = notPassed.flatMap((c) => [
    '',
    `### \`${c.id}\`: ${STATUS_LABEL[c.status]} (section ${c.section})`,
    '',
    `${c.title}.`,
    ...(c.deviation ? ['', `Known deviation: ${cell(c.deviation.reason)}${linkOf(c.deviation.link)}`] : []),
    '',
    ...(c.status === 'not-exercised' ? [`Not exercised: ${cell(c.reason ?? '')}`] : evidenceOf(c)),
  ]);
  // What the target says of its own version, where it says anything: a product stated above is not contradicted by "not stated".
  const reported = report.target?.reportedVersion
    ? `; the target's own version: ${cell(
        Object.entries(report.target.reportedVersion)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', '),
      )}`
    : '';
  return [
    renderMarkdown(report).trimEnd(),
    '',
    `Run ${report.startedAt}; ${report.requests?.count ?? '?'} requests (${report.requests?.methods.join(', ') ?? ''})${reported}.`,
    '',
    '## Clauses that did not pass',
    ...(exportPreamble(report.placeholders).length > 0 && sections.length > 0
      ? [
          '',
          'The curl lines use shell variables for the secrets; these lines set them from the settings of the run:',
          '',
          ...markdownBlock(exportPreamble(report.placeholders).join('\n'), 'sh'),
        ]
      : []),
    ...(sections.length > 0 ? sections : ['', 'None.']),
    '',
    '## Observations',
    '',
    ...observationLines(report),
    '',
  ].join('\n');
}
