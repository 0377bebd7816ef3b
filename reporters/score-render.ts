import { html, markdownText } from './escape.ts';
import type { MatrixReport } from './matrix-result.ts';
import { scoreText, type ProfileScore, type Score } from './scores.ts';

// The scores section of the fleet's page and of its summary.md: each claimed profile's score overall, then by each
// value of each tag. A pure function of the matrix's scores (scores.ts); a profile no target exercised says so.

/** The tag values a page lists per tag; the rest are counted (the matrix's scores hold them all). */
export const VALUES_AT_MOST = 50;

const entriesOf = (values: Record<string, Score>) => Object.entries(values).slice(0, VALUES_AT_MOST);
const more = (values: Record<string, Score>) => Math.max(0, Object.keys(values).length - VALUES_AT_MOST);

function profileHtml(p: ProfileScore): string {
  const tags = Object.entries(p.byTag).map(
    ([tag, values]) =>
      `<tr><th colspan="2">by ${html(tag)}</th></tr>${entriesOf(values)
        .map(
          ([value, s]) =>
            `<tr data-tag="${html(tag)}" data-value="${html(value)}" data-status="${s.status}"><td>${html(value)}</td><td>${html(scoreText(s))}</td></tr>`,
        )
        .join('')}${more(values) ? `<tr><td colspan="2">…and ${more(values)} more values</td></tr>` : ''}`,
  );
  return `<section data-testid="score" data-profile="${html(p.profile)}" data-status="${p.status}"><h3><code>${html(p.profile)}</code>: ${html(scoreText(p))}</h3>${tags.length ? `<table class="matrix"><tbody>${tags.join('')}</tbody></table>` : ''}</section>`;
}

/** The scores on the fleet's page; empty for a matrix without scores (one merged from older reports). */
export function scoresHtml(m: MatrixReport): string {
  if (!m.scores?.length) return '';
  return `<h2>Scores</h2><p>The share of the targets that exercised each claimed profile that meet it; insufficient data where none exercised it.</p><div data-testid="scores">${m.scores.map(profileHtml).join('')}</div>\n`;
}

/** The scores in summary.md: a line per profile, then its tags' values. */
export function scoresMarkdown(m: MatrixReport): string[] {
  if (!m.scores?.length) return [];
  const lines = ['', '### Scores', '', 'The share of the targets that exercised each claimed profile that meet it.', ''];
  for (const p of m.scores) {
    lines.push(`- \`${markdownText(p.profile)}\`: ${scoreText(p)}`);
    for (const [tag, values] of Object.entries(p.byTag)) {
      const listed = entriesOf(values).map(([value, s]) => `${markdownText(value)} ${scoreText(s)}`);
      lines.push(`  - by ${markdownText(tag)}: ${listed.join('; ')}${more(values) ? `; …and ${more(values)} more values` : ''}`);
    }
  }
  return lines;
}
