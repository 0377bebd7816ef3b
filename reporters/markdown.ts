import type { ClauseResult, ConformanceReport } from './conformance-result.ts';
import { VERDICT_LABEL } from './sections.ts';

const VERDICT_TEXT = {
  pass: 'the target meets every exercised MUST clause',
  fail: 'the target violates the document',
  error: 'the run could not reach a verdict on every clause',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function firstViolation(clause: ClauseResult): string {
  const v = clause.evidence?.violations[0];
  return v ? `\`${v.request.method} ${v.request.path}\` → ${v.request.status}: at \`${v.pointer || '(response)'}\` received ${cell(v.received)}; required ${cell(v.required)}` : cell(clause.reason ?? '');
}

function table(title: string, rows: ClauseResult[], describe: (c: ClauseResult) => string): string[] {
  if (rows.length === 0) return [];
  return ['', `### ${title}`, '', '| clause | section | detail |', '|---|---|---|', ...rows.map((c) => `| \`${c.id}\` | ${c.section} | ${describe(c)} |`)];
}

/** A short Markdown summary, fit for a pull-request comment or a CI job summary. */
export function renderMarkdown(report: ConformanceReport): string {
  const s = report.summary;
  const of = (status: string) => report.clauses.filter((c) => c.status === status);
  const lines = [
    `## Conformance: ${VERDICT_LABEL[report.verdict]}, ${VERDICT_TEXT[report.verdict]}`,
    '',
    `Target **${cell(report.target.name)}** (\`${report.target.baseUrl}\`), suite ${report.suite.version}, contracts \`${report.suite.contractsHash}\`, ${new Date(report.startedAt).toISOString()}.`,
    '',
    '| | passed | failed | errored | not exercised | known deviations |',
    '|---|---|---|---|---|---|',
    `| MUST | ${s.must.passed} | ${s.must.failed} | ${s.must.errored} | ${s.must.notExercised} | ${s.must.knownDeviations} |`,
    `| all clauses | ${s.passed} | ${s.failed} | ${s.errored} | ${s.notExercised} | ${s.knownDeviations} |`,
    ...table('Failed', of('failed'), firstViolation),
    ...table('Errored', of('errored'), (c) => cell((c.evidence?.unevaluable[0]?.reason ?? c.reason ?? '').split('\n')[0])),
    ...table('Known deviations', of('known-deviation'), (c) => `${cell(c.deviation!.reason)}${c.deviation!.link ? ` ([link](${c.deviation!.link}))` : ''}`),
    ...table('Deviations no longer needed', report.clauses.filter((c) => c.deviation?.state === 'no-longer-needed'), () => 'now passes: remove it from the deviations file'),
    ...table('Not exercised (MUST)', of('not-exercised').filter((c) => c.level === 'MUST'), (c) => cell(c.reason ?? '')),
  ];
  if (!report.completed) lines.push('', `The run did not complete: ${cell(report.errors[0] ?? 'interrupted')}`);
  return `${lines.join('\n')}\n`;
}
