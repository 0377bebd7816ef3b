import { markdownCode, markdownText } from './escape.ts';

// An observation in summary.md, as the page shows it in tables (observation-html.ts): an object is a list of its
// keys, a list of objects a list of items, a list of plain values one line; past a few levels the rest is compact
// JSON in code, so that a hostile depth cannot grow the file. Every quoted word is escaped for Markdown.

const DEEPEST = 4;

const isPlain = (value: unknown) => value === null || typeof value !== 'object';

function plain(value: unknown): string {
  if (value === null) return '*null*';
  return typeof value === 'string' ? markdownText(value) : markdownCode(JSON.stringify(value));
}

/** One recorded value as Markdown lines below a list item, indented by `depth`; plain values stay on the item's line. */
export function valueLines(value: unknown, depth = 1): { inline?: string; lines: string[] } {
  if (isPlain(value)) return { inline: plain(value), lines: [] };
  if (depth > DEEPEST) return { inline: markdownCode(JSON.stringify(value)), lines: [] };
  const indent = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return { inline: '*none*', lines: [] };
    if (value.every(isPlain)) return { inline: value.map(plain).join(', '), lines: [] };
    return { lines: value.flatMap((item, i) => itemLines(`${i + 1}.`, item, indent, depth)) };
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return { inline: '*nothing*', lines: [] };
  return { lines: entries.flatMap(([key, item]) => itemLines(`- ${markdownText(key)}:`, item, indent, depth)) };
}

function itemLines(head: string, value: unknown, indent: string, depth: number): string[] {
  const { inline, lines } = valueLines(value, depth + 1);
  return [`${indent}${head.startsWith('-') ? '' : '- '}${head}${inline === undefined ? '' : ` ${inline}`}`, ...lines];
}
