import type { ClauseResult, ReportView } from './conformance-result.ts';
import { gateText } from './gate.ts';
import {
  baselineText,
  compareSections,
  documentText,
  isAbsoluteLink,
  productText,
  replayText,
  SECTION_TITLES,
  claimText,
  profileStatusText,
  VERIFY_LINE,
  STATUS_LABEL,
  exportPreamble,
  headline,
  NO_TARGET,
  reasonFirst,
  verdictText,
} from './sections.ts';
import { html } from './escape.ts';
import { STYLE } from './html-style.ts';
import { HISTORY_STYLE, historySection } from './history-render.ts';
import { valueHtml } from './observation-html.ts';
import { flakySection } from './flaky-render.ts';
import { requestText, violationText, type Marks } from '../harness/judging/violation-words.ts';

// Every quoted string is escaped for HTML (escape.ts), its hidden characters shown.
const esc = html;
/** A violation's pieces on the page: the request, the place and what was received as code. */
const IN_HTML: Marks = { code: (text) => `<code>${esc(text)}</code>`, value: (text) => `<code>${esc(text)}</code>`, text: esc };

function tile(label: string, value: number, status: string): string {
  return `<div class="tile ${status}"><span class="n">${value}</span><span>${esc(label)}</span></div>`;
}

function repeatRow(r: ReportView): string {
  const c = r.consistency;
  if (!c) return '';
  const latency = Object.entries(c.latencyMs)
    .map(([op, p]) => `${op}: p50 ${p.p50} ms, p90 ${p.p90} ms, p99 ${p.p99} ms`)
    .join('; ');
  const answers = c.consistent
    ? 'every request answered alike'
    : `${c.inconsistent.length} request(s) answered differently: ${c.inconsistent.map((i) => `${i.method} ${i.path}`).join(', ')}`;
  return `<dt>Repeat</dt><dd data-testid="consistency">${c.rounds} rounds, ${c.concurrency} at a time; ${esc(answers)}; ${esc(latency)}</dd>`;
}

/** What the exit code followed, when it is not the verdict alone (CONFORMANCE_GATE=regressions). */
function gateLine(r: ReportView): string {
  const line = gateText(r);
  return line === undefined ? '' : `<p data-testid="gate"><b>${esc(line)}</b></p>`;
}

const baselineRow = (r: ReportView) => (r.baseline ? `<dt>Baseline</dt><dd data-testid="baseline">${esc(baselineText(r.baseline, r.target?.name))}</dd>` : '');

/** A table's cell, with the column's name for when narrow screens stack the table (html-style.ts). */
const td = (label: string, content: string, attributes = '') => `<td data-label="${esc(label)}"${attributes}>${content}</td>`;

/** Each profile: claimed or not, its status (with its known deviations), what passed, and what it needs. */
function profileTable(r: ReportView): string {
  const rows = r.claim.byProfile.map(
    (p) =>
      `<tr data-profile="${esc(p.name)}">${td('profile', `<code>${esc(p.name)}</code> ${esc(p.title)}`)}${td('claimed', p.claimed ? 'yes' : 'no')}${td('status', esc(profileStatusText(p)))}${td('MUST passed', `${p.must.passed} of ${p.must.total}`)}${td('known deviations', String(p.must.knownDeviations))}${td('needs', esc(p.needs))}</tr>`,
  );
  return `<section data-testid="claim"><p>Claim: ${esc(claimText(r.claim))}.</p><table class="stack"><thead><tr><th>profile</th><th>claimed</th><th>status</th><th>MUST passed</th><th>known deviations</th><th>needs</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

/** What the target says of its own version, where it says anything: a product stated above is not contradicted by "not stated". */
function reportedVersionRow(r: ReportView): string {
  const reported = r.target?.reportedVersion;
  if (!reported) return '';
  const version = Object.entries(reported)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  return `<dt>Target's own version</dt><dd data-testid="reported-version">${esc(version)}</dd>`;
}

/** How a reader checks the evidence bundle this page came with, when the run left one. */
const verifyRow = (r: ReportView) =>
  r.target
    ? `<dt>Check it</dt><dd data-testid="verify"><code>${esc(VERIFY_LINE)}</code> judges the bundle's answers again and compares them with this report</dd>`
    : '';

function meta(r: ReportView): string {
  return `<dl class="meta">
${r.replay ? `<dt>Replay</dt><dd data-testid="replay">${esc(replayText(r.replay, r.startedAt))}</dd>` : ''}${baselineRow(r)}
<dt>Product</dt><dd data-testid="product">${esc(productText(r.product))}</dd>
<dt>Base URL</dt><dd>${esc(r.target?.baseUrl ?? 'none read')}</dd>
${reportedVersionRow(r)}
<dt>Document</dt><dd data-testid="document">${esc(documentText(r.document))}</dd>
<dt>Suite</dt><dd>${esc(r.suite.name)} ${esc(r.suite.version)}, contracts ${esc(r.suite.contractsHash)}</dd>
<dt>Started</dt><dd>${esc(r.startedAt)}, ${(r.durationMs / 1000).toFixed(1)} s</dd>
<dt>Requests</dt><dd>${r.requests ? `${r.requests.count} (${esc(r.requests.methods.join(', '))})` : 'unknown'}</dd>${repeatRow(r)}
${verifyRow(r)}
</dl>`;
}

function header(r: ReportView): string {
  const s = r.summary;
  return `<header class="verdict ${r.verdict}">
<h1><span class="badge" data-testid="verdict">${headline(r)}</span> ${esc(r.target?.name ?? NO_TARGET)}</h1>
${reasonFirst(r)
  .map((e) => `<pre class="reason" data-testid="reason">${esc(e)}</pre>`)
  .join('')}
<p>${esc(verdictText(r).replace(/^./, (c) => c.toUpperCase()))}. MUST clauses: <b data-testid="must-passed">${s.must.passed}</b> passed of <b data-testid="must-total">${s.must.total}</b>; INFO observations: ${s.observed} of ${s.total - s.must.total}, never judged.</p>${gateLine(r)}
</header>
<section class="tiles" data-testid="counts">${tile('MUST passed', s.must.passed, 'passed')}${tile('failed', s.must.failed, 'failed')}${tile('errored', s.must.errored, 'errored')}${tile('not exercised', s.must.notExercised, 'not-exercised')}${tile('known deviations', s.must.knownDeviations, 'known-deviation')}${tile('not judged', s.must.notJudged, 'not-judged')}${tile('INFO observed', s.observed, 'observed')}</section>
${profileTable(r)}
${meta(r)}`;
}

function violationsHtml(c: ClauseResult): string {
  const e = c.evidence;
  if (!e) return c.reason ? `<pre>${esc(c.reason)}</pre>` : '';
  const items = e.violations.map(
    (v) => `<li>${requestText(v.request, IN_HTML)}<br>
${violationText(v, IN_HTML)}
<pre class="curl">${esc(v.request.curl)}</pre>${v.request.bodyExcerpt ? `<details><summary>body</summary><pre>${esc(v.request.bodyExcerpt)}</pre></details>` : ''}</li>`,
  );
  const errored = e.unevaluable.map(
    (u) =>
      `<li><code>${esc(u.request.method)} ${esc(u.request.path)}</code> → ${esc(u.request.status ?? 'no answer')}: ${esc(u.reason)}<pre class="curl">${esc(u.request.curl)}</pre></li>`,
  );
  const cut = e.violationsCut > 0 ? `<p>… and ${e.violationsCut} more violations, not kept.</p>` : '';
  return `<ul class="evidence">${items.join('')}${errored.join('')}</ul>${cut}`;
}

function deviationHtml(c: ClauseResult): string {
  const d = c.deviation;
  if (!d) return '';
  const link = isAbsoluteLink(d.link) ? ` <a href="${esc(d.link)}">${esc(d.link)}</a>` : d.link ? ` (<code>${esc(d.link)}</code>)` : '';
  return `<p class="deviation">Known deviation (${esc(d.state)}${d.expires ? `, expires ${esc(d.expires)}` : ''}): ${esc(d.reason)}${link}</p>`;
}

function row(c: ClauseResult, open = false): string {
  const detail =
    c.status === 'passed' || c.status === 'observed'
      ? ''
      : `${deviationHtml(c)}${c.status === 'not-exercised' || c.status === 'not-judged' ? `<p>${esc(c.reason)}</p>` : violationsHtml(c)}`;
  const summary = `<span class="pill ${c.status}">${STATUS_LABEL[c.status]}</span> <span class="title">${esc(c.title)}</span> <code class="id">${esc(c.id)}</code> <span class="level">${c.level}</span>`;
  return detail
    ? `<details class="clause"${open ? ' open' : ''} data-clause="${esc(c.id)}"><summary>${summary}</summary>${detail}</details>`
    : `<div class="clause" data-clause="${esc(c.id)}">${summary}</div>`;
}

/** Failures and errors first, evidence open, and the known deviations a verdict rests on beside them, so a reader sees what matters without scrolling. */
function attention(r: ReportView): string {
  const rows = r.clauses.filter((c) => c.status === 'failed' || c.status === 'errored');
  const accepted = r.clauses.filter((c) => c.status === 'known-deviation');
  const preamble = exportPreamble(r.placeholders);
  const reproduce =
    preamble.length === 0
      ? ''
      : `<p>The curl lines use shell variables for the secrets; these lines set them from the settings of the run:</p><pre class="curl" data-testid="preamble">${esc(preamble.join('\n'))}</pre>`;
  const failing =
    rows.length === 0
      ? ''
      : `<h2>Needs attention</h2>${reproduce}<section class="group" data-testid="attention">${rows.map((c) => row(c, true)).join('')}</section>`;
  const deviations =
    accepted.length === 0
      ? ''
      : `<h2>Known deviations the verdict rests on</h2><section class="group" data-testid="deviations">${accepted.map((c) => row(c, true)).join('')}</section>`;
  return failing + deviations;
}

function clausesBySection(r: ReportView): string {
  const sections = [...new Set(r.clauses.filter((c) => c.level !== 'INFO').map((c) => c.section))].sort(compareSections);
  return sections
    .map(
      (s) =>
        `<section class="group"><h3>${esc(s)} ${esc(SECTION_TITLES[s] ?? '')}</h3>${r.clauses
          .filter((c) => c.section === s && c.level !== 'INFO')
          .map((c) => row(c))
          .join('')}</section>`,
    )
    .join('');
}

function observations(r: ReportView): string {
  const info = r.clauses.filter((c) => c.level === 'INFO');
  const items = info.map(
    (
      c,
    ) => `<details class="clause" data-clause="${esc(c.id)}"><summary><span class="pill ${c.status}">${STATUS_LABEL[c.status]}</span> <span class="title">${esc(c.title)}</span> <code class="id">${esc(c.id)}</code></summary>
<div class="observed" data-testid="observation">${c.evidence?.observations === undefined ? `<p>${esc(c.reason ?? 'nothing observed')}</p>` : valueHtml(c.evidence.observations)}</div></details>`,
  );
  return `<h2>Observations</h2><p>Behaviour the document leaves open, recorded and never judged.</p>${items.join('')}`;
}

/** The MUST clauses the run judged: passed, failed or a known deviation; an errored, unexercised or unjudged one was not. */
const JUDGED = new Set(['passed', 'failed', 'known-deviation']);

function coverage(r: ReportView): string {
  const must = r.clauses.filter((c) => c.level === 'MUST');
  const judged = must.filter((c) => JUDGED.has(c.status)).length;
  const pct = must.length === 0 ? 0 : Math.round((100 * judged) / must.length);
  return `<h2>Coverage</h2><p data-testid="coverage">${judged} of ${must.length} MUST clauses judged (${pct}%); the others errored, were not exercised or not judged.</p><div class="bar"><span style="width:${pct}%"></span></div>`;
}

function footer(r: ReportView): string {
  const errors = r.errors.map((e) => `<pre>${esc(e)}</pre>`).join('');
  return `<footer data-testid="completed">${r.completed ? 'The run completed.' : 'The run did not complete.'}${errors}</footer>`;
}

/** One self-contained HTML page (no scripts, no external assets) rendered from the report. */
export function renderHtml(r: ReportView): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance ${headline(r)}: ${esc(r.target?.name ?? NO_TARGET)}</title>
<style>${STYLE}${r.history ? HISTORY_STYLE : ''}</style></head>
<body><main>
${header(r)}
${attention(r)}
${historySection(r)}${flakySection(r)}
<h2>Clauses by section</h2>${clausesBySection(r)}
${observations(r)}
${coverage(r)}
${footer(r)}
</main></body></html>
`;
}
