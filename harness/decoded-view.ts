// A text as a reader would decode it, layer by layer, each character remembering which characters of the
// original text it came from. The redactor searches the secrets in every layer and replaces what they came
// from, so a secret is found however it was escaped: in JSON (\u002a, \/, \"), in a URL (%2A, %2a, or only
// in part), in HTML (&#42;, &ast;), in a JSON pointer (~1), or in several of these nested.
// A layer keeps only the escapes it decoded, not a record per unit: a body of tens of MiB with a few escapes
// in it costs those escapes and one copy of its text, and only a scan when none of them decodes.

/** One layer of decoding: its text, and where each UTF-16 unit of it came from (originalSpan tells). */
export interface View {
  text: string;
  /** Undefined for the original text itself, where unit i comes from [i, i + 1). */
  decoding?: Decoding;
}

/**
 * How a view was decoded from the view below it, one entry per escape, in order: the escape at units
 * [belowFrom[k], belowTo[k]) of the view below became units [from[k], to[k]) of this one. The units between
 * two escapes are copied, one for one.
 */
interface Decoding {
  below: View;
  from: number[];
  to: number[];
  belowFrom: number[];
  belowTo: number[];
}

/** At most this many layers are decoded: a secret escaped for a URL, then for JSON, then once more. */
const MAX_LAYERS = 3;

const HEX = /^[0-9a-fA-F]+$/;

// HTML 5 character references of the ASCII punctuation a token may hold.
export const NAMED: Record<string, string> = {
  excl: '!',
  quot: '"',
  num: '#',
  dollar: '$',
  percnt: '%',
  amp: '&',
  apos: "'",
  lpar: '(',
  rpar: ')',
  ast: '*',
  midast: '*',
  plus: '+',
  comma: ',',
  period: '.',
  sol: '/',
  colon: ':',
  semi: ';',
  lt: '<',
  equals: '=',
  gt: '>',
  quest: '?',
  commat: '@',
  lsqb: '[',
  lbrack: '[',
  bsol: '\\',
  rsqb: ']',
  rbrack: ']',
  Hat: '^',
  lowbar: '_',
  UnderBar: '_',
  grave: '`',
  lcub: '{',
  lbrace: '{',
  verbar: '|',
  vert: '|',
  VerticalLine: '|',
  rcub: '}',
  rbrace: '}',
};

// JSON's short escapes; any other ASCII punctuation after a backslash stands for itself (JSON's \" \\ \/, a shell's or Markdown's \*).
const SHORT: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const PUNCTUATION = /[!-/:-@[-`{-~]/;

const isCodePoint = (n: number) => Number.isInteger(n) && n >= 0 && n <= 0x10ffff;

/** What starts at `i`: the decoded text and how many units it takes, or undefined when nothing is escaped there. */
type Decoded = { text: string; length: number } | undefined;

/** \u{1F600}: at most 6 digits, so the "}" is looked for that far only, not across the rest of a long text. */
function braced(text: string, i: number): Decoded {
  const close = text.slice(i + 3, i + 10).indexOf('}');
  const digits = close === -1 ? '' : text.slice(i + 3, i + 3 + close);
  const n = digits.length > 0 && HEX.test(digits) ? parseInt(digits, 16) : NaN;
  return isCodePoint(n) ? { text: String.fromCodePoint(n), length: close + 4 } : undefined;
}

function backslash(text: string, i: number): Decoded {
  const next = text[i + 1];
  if (next === 'u' && text[i + 2] === '{') return braced(text, i);
  if (next === 'u' || next === 'x') {
    const digits = text.slice(i + 2, i + (next === 'u' ? 6 : 4));
    return digits.length === (next === 'u' ? 4 : 2) && HEX.test(digits)
      ? { text: String.fromCharCode(parseInt(digits, 16)), length: 2 + digits.length }
      : undefined;
  }
  if (next !== undefined && SHORT[next] !== undefined) return { text: SHORT[next], length: 2 };
  if (next !== undefined && PUNCTUATION.test(next)) return { text: next, length: 2 };
  return undefined;
}

const UTF8 = new TextDecoder('utf-8', { fatal: false });

const byteAt = (text: string, i: number) =>
  text[i] === '%' && HEX.test(text.slice(i + 1, i + 3)) && text.length >= i + 3 ? parseInt(text.slice(i + 1, i + 3), 16) : -1;

/** A percent-encoded character: one byte below 0x80, or a whole UTF-8 sequence of them. */
function percent(text: string, i: number): Decoded {
  const lead = byteAt(text, i);
  if (lead < 0) return undefined;
  if (lead < 0x80) return { text: String.fromCharCode(lead), length: 3 };
  const count = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
  if (count === 0) return undefined;
  const bytes = [lead];
  for (let k = 1; k < count; k++) {
    const b = byteAt(text, i + 3 * k);
    if (b < 0x80 || b > 0xbf) return undefined;
    bytes.push(b);
  }
  const decoded = UTF8.decode(Uint8Array.from(bytes));
  return decoded.includes('\ufffd') ? undefined : { text: decoded, length: 3 * count };
}

/** How far after its "&" the ";" of a character reference may be; it is looked for that far only. */
const REFERENCE_REACH = 33;

function reference(text: string, i: number): Decoded {
  const found = text.slice(i + 1, i + 1 + REFERENCE_REACH).indexOf(';');
  if (found === -1) return undefined;
  const semi = i + 1 + found;
  const name = text.slice(i + 1, semi);
  // Own names only: "&constructor;" or "&toString;" must not decode to what every object inherits.
  if (Object.hasOwn(NAMED, name)) return { text: NAMED[name], length: semi + 1 - i };
  const n = /^#[0-9]{1,7}$/.test(name) ? parseInt(name.slice(1), 10) : /^#[xX][0-9a-fA-F]{1,6}$/.test(name) ? parseInt(name.slice(2), 16) : NaN;
  return isCodePoint(n) ? { text: String.fromCodePoint(n), length: semi + 1 - i } : undefined;
}

function decodedAt(text: string, i: number): Decoded {
  switch (text[i]) {
    case '\\':
      return backslash(text, i);
    case '%':
      return percent(text, i);
    case '&':
      return reference(text, i);
    case '~':
      return text[i + 1] === '0' ? { text: '~', length: 2 } : text[i + 1] === '1' ? { text: '/', length: 2 } : undefined;
    default:
      return undefined;
  }
}

/** The last escape that starts at or before unit i of a view, or -1 when none does. */
function escapeAtOrBefore(from: number[], i: number): number {
  let [low, high] = [0, from.length - 1];
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (from[mid] <= i) low = mid + 1;
    else high = mid - 1;
  }
  return high;
}

/** The first and last units of the view below that unit i of a decoded view came from. */
function unitsBelow(decoding: Decoding, i: number): [number, number] {
  const k = escapeAtOrBefore(decoding.from, i);
  if (k === -1) return [i, i];
  if (i < decoding.to[k]) return [decoding.belowFrom[k], decoding.belowTo[k] - 1];
  const below = decoding.belowTo[k] + (i - decoding.to[k]);
  return [below, below];
}

// A unit outside a view, which no caller asks about, is taken as coming from the same place of the original text.
const inside = (view: View, i: number) => i >= 0 && i < view.text.length;

function startOf(view: View, i: number): number {
  const { decoding } = view;
  return decoding && inside(view, i) ? startOf(decoding.below, unitsBelow(decoding, i)[0]) : i;
}

function endOf(view: View, i: number): number {
  const { decoding } = view;
  return decoding && inside(view, i) ? endOf(decoding.below, unitsBelow(decoding, i)[1]) : i + 1;
}

/**
 * The next layer of a view, or undefined when nothing in it is escaped. Only where an escape may start is
 * anything tried; the text between decoded escapes is copied in slices.
 */
function decodeOnce(view: View): View | undefined {
  const { text } = view;
  const decoding: Decoding = { below: view, from: [], to: [], belowFrom: [], belowTo: [] };
  const pieces: string[] = [];
  let copied = 0;
  let length = 0;
  const candidates = /[\\%&~]/g;
  for (let match = candidates.exec(text); match !== null; match = candidates.exec(text)) {
    const i = match.index;
    const decoded = decodedAt(text, i);
    if (!decoded) continue;
    const at = length + (i - copied);
    pieces.push(text.slice(copied, i), decoded.text);
    length = at + decoded.text.length;
    copied = i + decoded.length;
    decoding.from.push(at);
    decoding.to.push(length);
    decoding.belowFrom.push(i);
    decoding.belowTo.push(copied);
    // What an escape took is not looked at again: "\\u0041" is an escaped backslash, then "u0041".
    candidates.lastIndex = copied;
  }
  if (pieces.length === 0) return undefined;
  pieces.push(text.slice(copied));
  return { text: pieces.join(''), decoding };
}

/** The text itself, then each layer of it decoded, as long as decoding changes anything. */
export function decodedViews(text: string): View[] {
  const views: View[] = [{ text }];
  for (let layer = 0; layer < MAX_LAYERS; layer++) {
    const next = decodeOnce(views[views.length - 1]);
    if (!next) break;
    views.push(next);
  }
  return views;
}

/** The [start, end) of the original text that the units [from, to) of a view came from. */
export function originalSpan(view: View, from: number, to: number): [number, number] {
  return [startOf(view, from), endOf(view, to - 1)];
}
