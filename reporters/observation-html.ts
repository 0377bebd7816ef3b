import { html as esc } from './escape.ts';

// An observation is whatever JSON its check recorded (a description's drift, the fields beyond the document, the
// counts of a list): the page shows it as tables a reader can scan, never as raw JSON. An object is a table of its
// keys, a list of objects a table with a column per key, a list of plain values one line; past a few levels the
// rest is shown as compact JSON, so that a hostile depth cannot grow the page.

const DEEPEST = 4;

const isPlain = (value: unknown) => value === null || typeof value !== 'object';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function plain(value: unknown): string {
  if (value === null) return '<i>null</i>';
  return typeof value === 'string' ? esc(value) : `<code>${esc(JSON.stringify(value))}</code>`;
}

function recordTable(record: Record<string, unknown>, depth: number): string {
  const rows = Object.entries(record).map(([key, value]) => `<tr><th scope="row">${esc(key)}</th><td>${valueHtml(value, depth + 1)}</td></tr>`);
  return rows.length === 0 ? '<i>nothing</i>' : `<table class="observation"><tbody>${rows.join('')}</tbody></table>`;
}

function listTable(items: Record<string, unknown>[], depth: number): string {
  const columns = [...new Set(items.flatMap((item) => Object.keys(item)))];
  const head = columns.map((c) => `<th>${esc(c)}</th>`).join('');
  const rows = items.map(
    (item) => `<tr>${columns.map((c) => `<td data-label="${esc(c)}">${c in item ? valueHtml(item[c], depth + 1) : ''}</td>`).join('')}</tr>`,
  );
  return `<table class="observation stack"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** One recorded value as HTML: tables for objects and lists of them, words for the rest. */
export function valueHtml(value: unknown, depth = 0): string {
  if (isPlain(value)) return plain(value);
  if (depth >= DEEPEST) return `<code>${esc(JSON.stringify(value))}</code>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '<i>none</i>';
    if (value.every(isPlain)) return value.map(plain).join(', ');
    if (value.every(isRecord)) return listTable(value, depth);
    return `<ol>${value.map((v) => `<li>${valueHtml(v, depth + 1)}</li>`).join('')}</ol>`;
  }
  return recordTable(value as Record<string, unknown>, depth);
}
