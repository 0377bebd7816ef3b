import { html, markdownText } from './escape.ts';
import { STYLE } from './html-style.ts';
import type { MatrixReport } from './matrix-result.ts';
import { compareSections, documentText, SECTION_TITLES, STATUS_LABEL, VERDICT_LABEL } from './sections.ts';

// Every quoted string is escaped for HTML (escape.ts), its hidden characters shown.
const esc = html;

const MATRIX_STYLE = `
table.matrix { border-collapse: collapse; width: 100%; background: #fff; border-radius: 8px; font-size: 13px; }
.matrix th, .matrix td { border-bottom: 1px solid #eef0f3; padding: 5px 8px; text-align: left; }
.matrix td.cell { text-align: center; color: #fff; font-size: 12px; }
.cell.passed { background: var(--pass); } .cell.failed { background: var(--fail); } .cell.errored { background: var(--error); }
.cell.known-deviation { background: var(--dev); } .cell.not-exercised, .cell.not-judged { background: #9ca3af; } .cell.observed { background: #64748b; }
.matrix tr.section th { background: #f3f4f6; color: var(--muted); }
`;

function targetHeads(m: MatrixReport): string {
  return m.targets
    .map(
      (t) =>
        `<th><a href="${esc(t.report)}">${esc(t.name)}</a><br><span class="pill ${t.verdict === 'pass' ? 'passed' : t.verdict === 'fail' ? 'failed' : 'errored'}" data-testid="target-verdict">${VERDICT_LABEL[t.verdict]}</span> ${t.summary.must.passed}/${t.summary.must.total} MUST<br><small data-testid="target-claim">claim: ${esc((t.claim ?? []).join(', '))}</small></th>`,
    )
    .join('');
}

function rows(m: MatrixReport): string {
  const sections = [...new Set(m.clauses.map((c) => c.section))].sort(compareSections);
  return sections
    .map((s) => {
      const head = `<tr class="section"><th colspan="${m.targets.length + 1}">${esc(s)} ${esc(SECTION_TITLES[s] ?? '')}</th></tr>`;
      const body = m.clauses
        .filter((c) => c.section === s)
        .map(
          (c) =>
            `<tr data-clause="${esc(c.id)}"><td>${esc(c.title)} <code class="id">${esc(c.id)}</code> <span class="level">${c.level}</span></td>${m.targets.map((t) => `<td class="cell ${c.byTarget[t.name]}">${STATUS_LABEL[c.byTarget[t.name]]}</td>`).join('')}</tr>`,
        );
      return head + body.join('');
    })
    .join('');
}

/** The target × clause matrix as one self-contained page, each target's own page linked from its column. */
export function renderMatrixHtml(m: MatrixReport): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance matrix ${VERDICT_LABEL[m.verdict]}</title><style>${STYLE}${MATRIX_STYLE}</style></head>
<body><main>
<header class="verdict ${m.verdict}"><h1><span class="badge" data-testid="verdict">${VERDICT_LABEL[m.verdict]}</span> ${m.targets.length} targets side by side</h1>
<p>${m.targets.filter((t) => t.verdict === 'pass').length} of ${m.targets.length} targets pass. Suite ${esc(m.suite.version)}, contracts ${esc(m.suite.contractsHash)}, ${esc(m.startedAt)}. Document: ${esc(documentText(m.document))}.</p></header>
<table class="matrix" data-testid="matrix"><thead><tr><th>clause</th>${targetHeads(m)}</tr></thead><tbody>${rows(m)}</tbody></table>
<footer>${m.completed ? 'The run completed.' : 'The run did not complete.'}${m.errors.map((e) => `<pre>${esc(e)}</pre>`).join('')}</footer>
</main></body></html>
`;
}

/** The matrix as Markdown: one line per target, then the clauses on which the targets differ or fail. */
export function renderMatrixMarkdown(m: MatrixReport): string {
  const lines = [
    `## Conformance matrix: ${VERDICT_LABEL[m.verdict]}, ${m.targets.filter((t) => t.verdict === 'pass').length} of ${m.targets.length} targets pass`,
    '',
    `Suite ${markdownText(m.suite.version)}, contracts \`${m.suite.contractsHash}\`. Document: ${markdownText(documentText(m.document))}.`,
    '',
    '| target | verdict | claim | MUST passed | failed | errored | not exercised | known deviations | of |',
    '|---|---|---|---|---|---|---|---|---|',
    ...m.targets.map(
      (t) =>
        `| ${markdownText(t.name)} | ${VERDICT_LABEL[t.verdict]} | ${markdownText((t.claim ?? []).join(', '))} | ${t.summary.must.passed} | ${t.summary.must.failed} | ${t.summary.must.errored} | ${t.summary.must.notExercised} | ${t.summary.must.knownDeviations} | ${t.summary.must.total} |`,
    ),
  ];
  const notable = m.clauses.filter((c) => c.status !== 'passed' && c.status !== 'observed');
  if (notable.length > 0) {
    lines.push('', `| clause | ${m.targets.map((t) => markdownText(t.name)).join(' | ')} |`, `|---|${m.targets.map(() => '---|').join('')}`);
    lines.push(...notable.map((c) => `| \`${c.id}\` | ${m.targets.map((t) => STATUS_LABEL[c.byTarget[t.name]]).join(' | ')} |`));
  }
  return `${lines.join('\n')}\n`;
}
