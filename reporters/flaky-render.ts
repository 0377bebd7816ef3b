import type { ConfirmedAnswer } from '../harness/judging/confirmation-report.ts';
import type { ClauseResult, ReportView } from './conformance-result.ts';
import { html, markdownCode, markdownText } from './escape.ts';

// What the page and summary.md say of confirmed failures (CONFORMANCE_CONFIRM) and of the quarantine: each flaky
// clause with the answers that differed side by side, and the quarantine's debt. Pure functions of the report.

const confirmed = (r: ReportView): ClauseResult[] => r.clauses.filter((c) => c.confirmation !== undefined);

const isFlaky = (c: ClauseResult) => (c.confirmation?.passed ?? 0) > 0;

/** How a confirmed clause fared, in the same words everywhere. */
function fared(c: ClauseResult): string {
  const { runs, failed, passed } = c.confirmation!;
  const excused = c.status === 'known-deviation' ? ', excused by its quarantine' : '';
  return isFlaky(c)
    ? `flaky: failed ${failed} of ${runs} times, passed ${passed}; no verdict${excused}`
    : `failed ${failed} of ${runs} times, passed none: a failure${excused}`;
}

/** One answer in a few words: its status or failure, its size and its body's digest. */
function answerText(a: ConfirmedAnswer): string {
  const head = a.status !== undefined ? String(a.status) : `no answer (${a.failure ?? 'none'})`;
  return `${head}, ${a.bodyBytes} bytes${a.bodySha256 ? `, sha256 ${a.bodySha256.slice(0, 12)}…` : ''}`;
}

function debtText(r: ReportView): string | undefined {
  const q = r.quarantine;
  if (q === undefined) return undefined;
  const oldest = q.oldest ? `; the oldest, ${q.oldest.clause}, since ${q.oldest.since}` : '';
  return `${q.count} clause${q.count === 1 ? '' : 's'} quarantined (kind: flaky), ${q.expired} expired; the first ends ${q.firstExpiry}${oldest}`;
}

/** summary.md's lines: each confirmed clause and how it fared, then the quarantine's debt. */
export function flakyLines(r: ReportView): string[] {
  const clauses = confirmed(r);
  const debt = debtText(r);
  if (clauses.length === 0 && debt === undefined) return [];
  return [
    '',
    ...(clauses.length > 0 ? ['### Confirmed failures', '', ...clauses.map((c) => `- ${markdownCode(c.id)}: ${markdownText(fared(c))}`)] : []),
    ...(debt === undefined ? [] : ['', `**Quarantine:** ${markdownText(debt)}.`]),
  ];
}

/** The answers of one confirmed clause, side by side: a row per request, a column per time it was judged. */
function answersTable(c: ClauseResult): string {
  const { outcomes, answers } = c.confirmation!;
  const head = outcomes.map((o, i) => `<th>${i === 0 ? 'first' : `confirmation ${i}`}: ${html(o)}</th>`).join('');
  const rows = answers.map(
    (row) =>
      `<tr><td><code>${html(`${row.method} ${row.path}`)}</code> as ${html(row.credential)}</td>${row.answers
        .map((a) => `<td>${html(answerText(a))}${a.bodyStart === undefined ? '' : `<pre>${html(a.bodyStart)}</pre>`}</td>`)
        .join('')}</tr>`,
  );
  return `<table class="confirmation"><thead><tr><th>request</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The page's section: each confirmed clause with its answers side by side, then the quarantine's debt. */
export function flakySection(r: ReportView): string {
  const clauses = confirmed(r);
  const debt = debtText(r);
  if (clauses.length === 0 && debt === undefined) return '';
  const items = clauses.map(
    (c) =>
      `<details data-clause="${html(c.id)}"${isFlaky(c) ? ' open' : ''}><summary><code>${html(c.id)}</code>: ${html(fared(c))}</summary>${answersTable(c)}</details>`,
  );
  const quarantine = debt === undefined ? '' : `<p data-testid="quarantine">Quarantine: ${html(debt)}.</p>`;
  return `<h2>Confirmed failures</h2><div class="group" data-testid="confirmations">${items.join('')}${quarantine}</div>`;
}
