import type { ReportView } from './conformance-result.ts';

const COLOURS = { pass: '#2e7d32', fail: '#c62828', error: '#b26a00', partial: '#b26a00', incomplete: '#6b7280' } as const;

// Verdana 11px averages about 6.6 px a character; the badge is sized from the text, as shields are.
const widthOf = (text: string) => Math.round(text.length * 6.6) + 12;

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The text of the badge's right half: MUST clauses met out of the catalogue's, and what kind of verdict it is. */
export function badgeText(report: ReportView): string {
  const m = report.summary.must;
  // The catalogue's count, the one denominator of every rendering; a narrowed claim names its profiles beside it.
  const count = `${m.passed}/${m.total} MUST${report.claim.narrowed ? `, claim: ${report.claim.profiles.join(', ')}` : ''}`;
  const text = report.verdict === 'pass' || report.verdict === 'fail' ? count : `${report.interrupted ? 'interrupted' : report.verdict} ${count}`;
  return report.target?.embedded ? `${text}, embedded reference` : text;
}

/** An SVG badge, `conformance | 37/37 MUST`, coloured by verdict. */
export function renderBadge(report: ReportView): string {
  const left = 'conformance';
  const right = badgeText(report);
  const [lw, rw] = [widthOf(left), widthOf(right)];
  const label = escapeXml(`${left}: ${right}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${label}">
<title>${label}</title>
<rect width="${lw}" height="20" fill="#555"/>
<rect x="${lw}" width="${rw}" height="20" fill="${COLOURS[report.verdict]}"/>
<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
<text x="${lw / 2}" y="14">${left}</text>
<text x="${lw + rw / 2}" y="14">${escapeXml(right)}</text>
</g>
</svg>
`;
}
