import type { ReportView } from './conformance-result.ts';
import type { MatrixReport } from './matrix-result.ts';
import { claimText, headline, verdictText } from './sections.ts';

// The badge's face says the verdict in the report's own headline word, and the known deviations a pass rests
// on: PASS and FAIL never read alike, whatever the colour. What the verdict claims (the MUST counts, a narrowed
// claim's profiles) is in its title and aria-label, so that the face stays short: bounded by its words, not by a
// claim's length. Colours are those of the page, each with white text at WCAG AA contrast.

const COLOURS = { pass: '#2e7d32', fail: '#c62828', error: '#8f5200', partial: '#8f5200', incomplete: '#4b5563' } as const;

// Verdana 11px averages about 6.6 px a character; the badge is sized from the text, as shields are.
const widthOf = (text: string) => Math.round(text.length * 6.6) + 12;

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The face of a target's badge: its headline, its known deviations, and whether it judged the embedded demo rather than a deployment. */
export function badgeText(report: ReportView): string {
  const known = report.summary.must.knownDeviations;
  return [headline(report), ...(known > 0 ? [plural(known, 'deviation')] : []), ...(report.target?.embedded ? ['embedded demo'] : [])].join(' · ');
}

/** What the badge claims, in full: the verdict in words, the MUST counts and the claim. */
export function badgeTitle(report: ReportView): string {
  const m = report.summary.must;
  return `conformance: ${headline(report)}, ${verdictText(report)}; ${m.passed} of ${m.total} MUST clauses passed; claim: ${claimText(report.claim)}`;
}

/** An SVG badge, `conformance | PASS · 1 deviation`, coloured by verdict, its claim in its title. */
function badge(right: string, title: string, verdict: keyof typeof COLOURS): string {
  const left = 'conformance';
  const [lw, rw] = [widthOf(left), widthOf(right)];
  const label = escapeXml(title);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${label}">
<title>${label}</title>
<rect width="${lw}" height="20" fill="#555"/>
<rect x="${lw}" width="${rw}" height="20" fill="${COLOURS[verdict]}"/>
<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
<text x="${lw / 2}" y="14">${left}</text>
<text x="${lw + rw / 2}" y="14">${escapeXml(right)}</text>
</g>
</svg>
`;
}

/** A target's badge.svg. */
export const renderBadge = (report: ReportView) => badge(badgeText(report), badgeTitle(report), report.verdict);

/** The badge of a run over several targets: its headline and how many targets pass. */
export function renderMatrixBadge(m: MatrixReport): string {
  const passing = m.targets.filter((t) => t.verdict === 'pass').length;
  const known = m.summary.must.knownDeviations;
  const face = [headline(m), `${passing}/${m.targets.length} targets pass`, ...(known > 0 ? [plural(known, 'deviation')] : [])].join(' · ');
  return badge(
    face,
    `conformance: ${headline(m)}, ${passing} of ${m.targets.length} targets pass; ${m.summary.must.passed} of ${m.summary.must.total} MUST clauses passed over every target`,
    m.verdict,
  );
}
