import type { ClauseResult, ReportView } from './conformance-result.ts';
import { html, markdownCode } from './escape.ts';
import type { Transition } from './history-account.ts';
import { FLAKY_CHANGES } from './transition.ts';

// What the renderings say of the run history (CONFORMANCE_HISTORY): summary.md's first lines (what regressed, what
// is flaky), the page's strip of each clause's last outcomes, and the label JUnit and CTRF carry. Pure functions
// of the report; a label never changes a status, a count or a verdict.

/** The transitions in the order a reader wants them: what got worse first. */
const ORDER: Transition[] = ['regressed', 'flaky', 'fixed', 'stale', 'new', 'unchanged'];

/** A transition's words, the same in every rendering. */
export const TRANSITION_WORDS: Record<Transition, string> = {
  new: 'new: no earlier run judged it',
  unchanged: 'unchanged since the last run that judged it',
  regressed: 'regressed since the last run that judged it',
  fixed: 'fixed since the last run that judged it',
  flaky: `flaky: its outcome changed ${FLAKY_CHANGES} times or more in the history, the suite, contracts and document unchanged`,
  stale: 'stale: this run did not judge it, and its last verdict is older than CONFORMANCE_STALE_AFTER',
};

/** summary.md's first lines: what regressed and what is flaky against the history, or that nothing did. */
export function historyLead(report: ReportView): string[] {
  const h = report.history;
  if (h === undefined) return [];
  const ids = (list: string[]) => list.map((id) => markdownCode(id)).join(', ');
  const against = `against the target's ${h.runsKept} earlier run${h.runsKept === 1 ? '' : 's'} in the history`;
  if (h.regressed.length === 0 && h.flaky.length === 0) return [`> Nothing regressed and nothing is flaky ${against}.`, ''];
  return [
    ...(h.regressed.length > 0 ? [`> **Regressed** ${against}: ${ids(h.regressed)}.`, ''] : []),
    ...(h.flaky.length > 0 ? [`> **Flaky** (its outcome changed ${FLAKY_CHANGES} times or more, the judge unchanged): ${ids(h.flaky)}.`, ''] : []),
  ];
}

/** An outcome as one letter, so that the strip reads without its colours. */
const LETTER: Record<string, string> = {
  passed: 'P',
  failed: 'F',
  errored: 'E',
  'not-exercised': '–',
  'known-deviation': 'D',
  'not-judged': '·',
  observed: 'O',
};

/** One clause's strip: its earlier outcomes, oldest first, then this run's; a change of judge drawn as a bar. */
function strip(c: ClauseResult, runs: NonNullable<ReportView['history']>['runs']): string {
  const cells = (c.recent ?? []).map((status, i) => {
    const mark = runs[i]?.judgeChanged ? '<span class="judge" title="the suite, contracts or document changed here">|</span>' : '';
    const word = status ?? 'absent';
    return `${mark}<span class="run ${word}" title="${html(`${runs[i]?.startedAt ?? ''}: ${word}`)}">${LETTER[word] ?? ' '}</span>`;
  });
  const words = [...(c.recent ?? []).map((s) => s ?? 'absent'), `${c.status} (this run)`].join(', ');
  return `<span class="strip" role="img" aria-label="${html(`oldest first: ${words}`)}">${cells.join('')}<span class="run now ${c.status}" title="this run: ${c.status}">${LETTER[c.status]}</span></span>`;
}

/** The page's history section: each clause with a transition, what got worse first, with the strip of its last runs. */
export function historySection(r: ReportView): string {
  const h = r.history;
  if (h === undefined) return '';
  const rank = (c: ClauseResult) => ORDER.indexOf(c.transition ?? 'unchanged');
  const rows = r.clauses
    .filter((c) => c.transition !== undefined)
    .sort((a, b) => rank(a) - rank(b))
    .map(
      (c) =>
        `<tr data-clause="${html(c.id)}"><td><code>${html(c.id)}</code></td><td class="transition ${c.transition}" title="${html(TRANSITION_WORDS[c.transition!])}">${c.transition}</td><td>${strip(c, h.runs)}</td></tr>`,
    );
  return `<h2>Over time</h2><p>Against the target's ${h.runsKept} earlier run${h.runsKept === 1 ? '' : 's'} in the history; the strip shows the last ${h.runs.length} and this one, oldest first (P passed, F failed, E errored, D known deviation, O observed, – not exercised, · not judged; a bar where the suite, contracts or document changed). A label changes no verdict.</p>
<div class="group" data-testid="history"><table class="history"><thead><tr><th>clause</th><th>transition</th><th>last runs</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** The page's style for the history section. */
export const HISTORY_STYLE = `
.history { border-collapse: collapse; width: 100%; font-size: 13px; } .history td, .history th { text-align: left; padding: 2px 6px; }
.strip { font-family: ui-monospace, monospace; white-space: nowrap; }
.strip .run { display: inline-block; width: 1.3em; text-align: center; margin-right: 1px; border-radius: 2px; background: #e5e7eb; color: #1f2937; }
.strip .run.passed { background: #2e7d32; color: #fff; } .strip .run.failed { background: #c62828; color: #fff; } .strip .run.errored { background: #8a5300; color: #fff; }
.strip .run.known-deviation { background: #6a1b9a; color: #fff; } .strip .run.now { outline: 2px solid #1f2937; }
.strip .judge { color: #1f2937; font-weight: 700; margin: 0 2px; }
.transition.regressed, .transition.flaky { color: #c62828; font-weight: 700; } .transition.fixed { color: #2e7d32; }
`;

/** The transition as a JUnit property, where the report has one. */
export const junitTransition = (c: ClauseResult): [string, string][] => (c.transition ? [['transition', c.transition]] : []);

/** What a CTRF test carries of the history: its transition as a label, and CTRF's own `flaky`. */
export function ctrfHistory(c: ClauseResult): { labels: Record<string, string>; flaky?: true } {
  return { labels: c.transition ? { transition: c.transition } : {}, ...(c.transition === 'flaky' && { flaky: true as const }) };
}
