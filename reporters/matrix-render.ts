import { html, markdownText } from './escape.ts';
import { STYLE } from './html-style.ts';
import type { Verdict } from './conformance-result.ts';
import { ageMinutes, ageText, productKey } from './fleet.ts';
import type { MatrixReport } from './matrix-result.ts';
import { scoresHtml, scoresMarkdown } from './score-render.ts';
import { compareSections, documentText, headline, SECTION_TITLES, STATUS_LABEL } from './sections.ts';

// Every quoted string is escaped for HTML (escape.ts), its hidden characters shown.
const esc = html;

const MATRIX_STYLE = `
table.matrix { border-collapse: collapse; width: 100%; background: #fff; border-radius: 8px; font-size: 13px; }
.matrix th, .matrix td { border-bottom: 1px solid #eef0f3; padding: 5px 8px; text-align: left; }
.matrix td.cell { text-align: center; color: #fff; font-size: 12px; }
.cell.passed { background: var(--pass); } .cell.failed { background: var(--fail); } .cell.errored { background: var(--error); }
.matrix tr.section th { background: #f3f4f6; color: var(--muted); }
.cell.known-deviation { background: var(--dev); } .cell.not-exercised, .cell.not-judged { background: var(--none); } .cell.observed { background: #334155; }
#targets th[data-column] { cursor: pointer; } #targets tr.stale td { background: #fffbeb; } .stale-mark { color: var(--fail); }
.signatures li { margin: 4px 0; } .controls input { width: 24em; max-width: 100%; box-sizing: border-box; }
`;

type MatrixTarget = MatrixReport['targets'][number];

/** The order a reader wants targets in: failures first, then those with no verdict, then the partial ones, then the passes. */
const VERDICT_ORDER: Verdict[] = ['fail', 'error', 'incomplete', 'partial', 'pass'];

/** The targets in that order, each group in the run's order. */
export const inReadingOrder = (targets: MatrixTarget[]) => [...targets].sort((a, b) => VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict));

/** How many targets, on what product, share a failure: "1 target on Unleash 8.2.0 fails", "2 targets that state no product fail". */
export function sharedBy(count: number, product: string): string {
  const one = count === 1;
  const on = product === productKey(undefined) ? (one ? 'that states no product' : 'that state no product') : `on ${product}`;
  return `${count} target${one ? '' : 's'} ${on} ${one ? 'fails' : 'fail'}`;
}

function targetHeads(m: MatrixReport): string {
  return inReadingOrder(m.targets)
    .map(
      (t) =>
        `<th><a href="${esc(t.report)}">${esc(t.name)}</a><br><span class="pill ${pillOf(t.verdict)}">${headline(t)}</span> ${t.summary.must.passed}/${t.summary.must.total} MUST</th>`,
    )
    .join('');
}

const pillOf = (verdict: Verdict) => (verdict === 'pass' ? 'passed' : verdict === 'fail' ? 'failed' : 'errored');

function gridRows(m: MatrixReport): string {
  const sections = [...new Set(m.clauses.map((c) => c.section))].sort(compareSections);
  return sections
    .map((s) => {
      const head = `<tr class="section"><th colspan="${m.targets.length + 1}">${esc(s)} ${esc(SECTION_TITLES[s] ?? '')}</th></tr>`;
      const body = m.clauses
        .filter((c) => c.section === s)
        .map(
          (c) =>
            `<tr data-clause="${esc(c.id)}"><td>${esc(c.title)} <code class="id">${esc(c.id)}</code> <span class="level">${c.level}</span></td>${inReadingOrder(
              m.targets,
            )
              .map((t) => `<td class="cell ${c.byTarget[t.name]}">${STATUS_LABEL[c.byTarget[t.name]]}</td>`)
              .join('')}</tr>`,
        );
      return head + body.join('');
    })
    .join('');
}

/** The most targets whose clause × target grid the page shows: beyond, a column each no longer fits a screen. */
export const GRID_AT_MOST = 10;

/** What a target fails, or why it has no verdict: an unreachable target's one reason, never every clause it could not judge. */
function whatFails(t: MatrixTarget): string {
  const failed = t.failed ?? [];
  if (failed.length > 0) return failed.map((id) => `<code>${esc(id)}</code>`).join(' ');
  return t.reason ? esc(t.reason) : '';
}

const COLUMNS = ['target', 'verdict', 'claim', 'MUST passed', 'what fails', 'product', 'taken'];

/** One row per target, with what the page sorts and filters it by; each cell names its column for a narrow screen. */
function targetRows(m: MatrixReport): string {
  const now = m.collectedAt;
  return inReadingOrder(m.targets)
    .map((t) => {
      const failed = t.failed ?? [];
      const age = now && t.startedAt ? ageText(ageMinutes(t.startedAt, now)) : '';
      const taken = t.startedAt ? `${esc(t.startedAt.slice(0, 16).replace('T', ' '))}${age ? ` (${age} ago)` : ''}` : '';
      const search = [t.name, headline(t), productKey(t.product), ...failed].join(' ').toLowerCase();
      const cells = [
        `<a href="${esc(t.report)}">${esc(t.name)}</a>`,
        `<span class="pill ${pillOf(t.verdict)}" data-testid="target-verdict">${headline(t)}</span>`,
        esc((t.claim ?? []).join(', ')),
        `${t.summary.must.passed}/${t.summary.must.total}`,
        whatFails(t),
        esc(productKey(t.product)),
        `${taken}${t.stale ? ` <strong class="stale-mark">stale: ${esc(t.stale)}</strong>` : ''}`,
      ];
      const sort = [undefined, undefined, undefined, t.summary.must.passed, failed.length];
      const tds = cells.map(
        (cell, i) =>
          `<td data-label="${COLUMNS[i]}"${sort[i] === undefined ? '' : ` data-sort="${sort[i]}"`}${i === 2 ? ' data-testid="target-claim"' : ''}${i === 4 ? ' data-testid="target-fails"' : ''}>${cell}</td>`,
      );
      return `<tr data-testid="target-row" data-verdict="${headline(t)}" data-search="${esc(search)}" data-taken="${esc(t.startedAt ?? '')}"${t.stale ? ' class="stale"' : ''}>${tds.join('')}</tr>`;
    })
    .join('');
}

function signatureItems(m: MatrixReport): string {
  const byName = new Map(m.targets.map((t) => [t.name, t]));
  return (m.signatures ?? [])
    .map(
      (g) =>
        `<li data-testid="signature"><details><summary><strong>${esc(sharedBy(g.targets.length, g.product))}</strong> <code>${esc(g.clause)}</code> ${esc(g.title)}${g.pointer ? ` at <code>${esc(g.pointer)}</code>` : ''}${g.required ? `: the document requires ${esc(g.required)}` : ''}</summary>${g.targets.map((n) => `<a href="${esc(byName.get(n)?.report ?? '')}">${esc(n)}</a>`).join(', ')}</details></li>`,
    )
    .join('');
}

// Sorting by a column's header and filtering by text and verdict; the table reads whole without it.
const FLEET_SCRIPT = `
const rows = [...document.querySelectorAll('[data-testid=target-row]')];
const body = document.querySelector('#targets tbody');
const filter = () => {
  const text = document.querySelector('#filter').value.trim().toLowerCase();
  const verdict = document.querySelector('#verdict-filter').value;
  let shown = 0;
  for (const row of rows) {
    const keep = (!text || row.dataset.search.includes(text)) && (!verdict || row.dataset.verdict === verdict);
    row.hidden = !keep;
    shown += keep ? 1 : 0;
  }
  document.querySelector('#shown').textContent = shown + ' of ' + rows.length + ' targets shown';
};
document.querySelector('#filter').addEventListener('input', filter);
document.querySelector('#verdict-filter').addEventListener('change', filter);
document.querySelectorAll('#targets th[data-column]').forEach((th) => th.addEventListener('click', () => {
  const i = Number(th.dataset.column);
  const down = th.dataset.order !== 'up';
  th.dataset.order = down ? 'up' : 'down';
  const key = (row) => { const cell = row.cells[i]; return cell.dataset.sort !== undefined ? Number(cell.dataset.sort) : (i === 6 ? row.dataset.taken : cell.textContent); };
  const sorted = [...rows].sort((a, b) => { const x = key(a), y = key(b); return (x < y ? -1 : x > y ? 1 : 0) * (down ? 1 : -1); });
  body.append(...sorted);
}));
`;

/** The run over several targets as one self-contained page: its shared failures, a row per target, each target's own page linked. */
export function renderMatrixHtml(m: MatrixReport): string {
  const grid = m.targets.length <= GRID_AT_MOST;
  // The filter offers the words the rows say (INTERRUPTED where a run was stopped), each once, in reading order.
  const verdicts = [...new Set(inReadingOrder(m.targets).map((t) => headline(t)))].map((v) => `<option value="${v}">${v}</option>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Conformance matrix ${headline(m)}</title><style>${STYLE}${MATRIX_STYLE}</style></head>
<body><main>
<header class="verdict ${m.verdict}"><h1><span class="badge" data-testid="verdict">${headline(m)}</span> ${m.targets.length} targets</h1>
${m.gate ? `<p data-testid="gate"><strong>${esc(m.gate.text)}</strong></p>` : ''}<p>${m.targets.filter((t) => t.verdict === 'pass').length} of ${m.targets.length} targets pass. Suite ${esc(m.suite.version)}, contracts ${esc(m.suite.contractsHash)}, ${esc(m.startedAt)}. Document: ${esc(documentText(m.document))}.</p></header>
${scoresHtml(m)}<h2>Failures the targets share</h2>
${m.signatures?.length ? `<ul class="signatures" data-testid="signatures">${signatureItems(m)}</ul>` : '<p>No target fails a clause.</p>'}
<h2>Targets</h2>
<p class="controls"><input id="filter" type="search" placeholder="filter: a name, a verdict, a clause id, a version" aria-label="filter the targets"> <select id="verdict-filter" aria-label="verdict"><option value="">every verdict</option>${verdicts}</select> <span id="shown">${m.targets.length} targets</span></p>
<table class="matrix stack" id="targets" data-testid="targets"><thead><tr>${COLUMNS.map((c, i) => `<th data-column="${i}">${c}</th>`).join('')}</tr></thead><tbody>${targetRows(m)}</tbody></table>
${grid ? `<h2>Clauses by target</h2><div class="scroll"><table class="matrix" data-testid="matrix"><thead><tr><th>clause</th>${targetHeads(m)}</tr></thead><tbody>${gridRows(m)}</tbody></table></div>` : ''}
<footer>${m.completed ? 'The run completed.' : 'The run did not complete.'}${m.errors.map((e) => `<pre>${esc(e)}</pre>`).join('')}</footer>
</main><script>${FLEET_SCRIPT}</script></body></html>
`;
}

/** The matrix as Markdown: one line per target, then the clauses on which the targets differ or fail. */
export function renderMatrixMarkdown(m: MatrixReport): string {
  const lines = [
    `## Conformance matrix: ${headline(m)}, ${m.targets.filter((t) => t.verdict === 'pass').length} of ${m.targets.length} targets pass`,
    '',
    ...(m.gate ? [`> **${markdownText(m.gate.text)}**`, ''] : []),
    `Suite ${markdownText(m.suite.version)}, contracts \`${m.suite.contractsHash}\`. Document: ${markdownText(documentText(m.document))}.`,
    '',
    '| target | verdict | claim | MUST passed | failed | errored | not exercised | known deviations | of | taken |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...inReadingOrder(m.targets).map(
      (t) =>
        `| ${markdownText(t.name)} | ${headline(t)} | ${markdownText((t.claim ?? []).join(', '))} | ${t.summary.must.passed} | ${t.summary.must.failed} | ${t.summary.must.errored} | ${t.summary.must.notExercised} | ${t.summary.must.knownDeviations} | ${t.summary.must.total} | ${markdownText(t.startedAt ?? '')}${t.stale ? ` **stale: ${markdownText(t.stale)}**` : ''} |`,
    ),
  ];
  lines.push(...scoresMarkdown(m));
  if (m.signatures?.length)
    lines.push(
      '',
      '### Failures the targets share',
      '',
      ...m.signatures.map(
        (g) =>
          `- **${markdownText(sharedBy(g.targets.length, g.product))}** \`${g.clause}\`${g.pointer ? ` at \`${markdownText(g.pointer)}\`` : ''}${g.required ? `: the document requires ${markdownText(g.required)}` : ''} (${g.targets.map(markdownText).join(', ')})`,
      ),
    );
  const notable = m.clauses.filter((c) => c.status !== 'passed' && c.status !== 'observed');
  if (notable.length > 0 && m.targets.length <= GRID_AT_MOST) {
    const targets = inReadingOrder(m.targets);
    lines.push('', `| clause | ${targets.map((t) => markdownText(t.name)).join(' | ')} |`, `|---|${targets.map(() => '---|').join('')}`);
    lines.push(...notable.map((c) => `| \`${c.id}\` | ${targets.map((t) => STATUS_LABEL[c.byTarget[t.name]]).join(' | ')} |`));
  }
  return `${lines.join('\n')}\n`;
}
