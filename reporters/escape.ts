import { visible, type Layout } from '../harness/files/visible.ts';

// Every string a report quotes may come from the target (field names, values, reasons, error names,
// header values) or from a file the user wrote: each medium shows it as text, never as its own markup.

/** Text for HTML or SVG: hidden characters as escapes, then &<>"' as character references. */
export function html(text: unknown, layout: Layout = 'block'): string {
  return visible(String(text ?? ''), layout).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// A backslash makes any ASCII punctuation literal in CommonMark; these start markup inside a line: code,
// emphasis, links and images, HTML and entities, table cells, strikethrough, GitHub's math ($) and mentions (@).
const MARKDOWN_PUNCTUATION = /[\\`*_[\]<>&|~$@!]/g;

/** Text for Markdown on one line: no markup, no HTML, no cell break; line breaks become spaces. */
export function markdownText(text: string): string {
  return visible(text.replace(/\r?\n/g, ' ')).replace(MARKDOWN_PUNCTUATION, '\\$&');
}

function longestRun(text: string, char: string): number {
  let [longest, run] = [0, 0];
  for (const c of text) [longest, run] = c === char ? [Math.max(longest, run + 1), run + 1] : [longest, 0];
  return longest;
}

/**
 * A code span that shows any text as it is: fenced by more backticks than the text holds in a row. In a
 * table cell a "|" would end the cell even there; GitHub takes "\|" in a cell's code span for "|".
 */
export function markdownCode(text: string, inTable = false): string {
  let shown = visible(text.replace(/\r?\n/g, ' '));
  if (inTable) shown = shown.replace(/\|/g, '\\|');
  const fence = '`'.repeat(longestRun(shown, '`') + 1);
  const pad = /^[` ]|[` ]$/.test(shown) ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** A fenced code block (its lines indented by `indent`) that no line of the text can close. */
export function markdownBlock(text: string, info: string, indent = ''): string[] {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return [
    `${indent}${fence}${info}`,
    ...visible(text, 'block')
      .split('\n')
      .map((l) => `${indent}${l}`),
    `${indent}${fence}`,
  ];
}

/** A link whose address can neither end it nor its table cell early, nor start markup: every character but a URL's plainest percent-encoded. */
export function markdownLink(label: string, address: string): string {
  return `[${markdownText(label)}](<${visible(address).replace(/[^A-Za-z0-9._~:/?#=%+,;-]/gu, (c) => encodeURIComponent(c))}>)`;
}
