import { EscapeRecords } from './escape-records.ts';

// A text as a reader would decode it, layer by layer, each character remembering which characters of the
// original text it came from. The redactor searches the secrets in every layer and replaces what they came
// from, so a secret is found however it was escaped: in JSON (\u002a, \/, \"), in a URL (%2A, %2a, or only
// in part), in HTML (&#42;, &ast;), in a JSON pointer (~1), or in several of these nested.
// A layer keeps only the escapes it decoded, not a record per unit: a body of tens of MiB with a few escapes
// in it costs those escapes and one copy of its text, and only a scan when none of them decodes; a body a
// target filled with escapes costs a few bytes an escape (harness/secrets/escape-records.ts), never an object.
// A target may also wrap what it echoes: base64 in lines of 76 (MIME) or 64 (PEM) characters, or a secret
// split across two lines, raw or as \n inside a JSON string. A text in which any layer holds a line break
// therefore also gets views without line breaks: the text with every stretch that some layer decodes to a
// line break taken out (a raw CR or LF, an escaped one such as \n or %0A, one escaped twice such as \\n) and
// nothing else decoded, then the layers decoded from that, in which an escaped line break decodes to nothing.
// A stretch taken out is kept as an escape that decoded to empty text, so these views, too, keep records
// of their line breaks and escapes only. A secret split by an escaped line break is found as it was written, even one
// that holds text a layer would decode ("~1"); one escaped and then wrapped is found in a later layer, even
// where a line break cuts an escape in two ("%3" at the end of a line, "A" at the start of the next).

/** One layer of decoding: its text, and where each UTF-16 unit of it came from (originalSpan tells). */
export interface View {
  text: string;
  /** Undefined for the original text itself, where unit i comes from [i, i + 1). */
  decoding?: Decoding;
}

/** How a view was decoded from the view below it: where each of its escapes came from, in order (harness/secrets/escape-records.ts). */
interface Decoding {
  below: View;
  records: EscapeRecords;
}

/**
 * At most this many layers are decoded: a secret escaped for a URL, then for JSON, then once more. Taking
 * the line breaks out is no layer of its own: the views without them are decoded as deep.
 */
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

// A unit outside a view, which no caller asks about, is taken as coming from the same place of the original text.
const inside = (view: View, i: number) => i >= 0 && i < view.text.length;

function startOf(view: View, i: number): number {
  const { decoding } = view;
  return decoding && inside(view, i) ? startOf(decoding.below, decoding.records.unitsBelow(i)[0]) : i;
}

function endOf(view: View, i: number): number {
  const { decoding } = view;
  return decoding && inside(view, i) ? endOf(decoding.below, decoding.records.unitsBelow(i)[1]) : i + 1;
}

const isLineBreak = (unit: string | undefined) => unit === '\n' || unit === '\r';

/** A layer being decoded from the view below it, one escape at a time and in order. */
interface Layer {
  /** The escape at units [at, at + length) of the view below decodes to `text`. */
  add(at: number, length: number, text: string): void;
  /** The decoded view, or undefined when no escape was added. */
  done(): View | undefined;
}

/** How many pieces of a layer's text are held before they are joined into one chunk. */
const PIECES_A_CHUNK = 1 << 14;

/**
 * A layer over `below`: the text between two escapes is copied in slices, joined into chunks as they
 * come, so that a text of millions of escapes never holds two strings for each.
 */
function layerOver(below: View): Layer {
  const decoding: Decoding = { below, records: new EscapeRecords() };
  const chunks: string[] = [];
  let pieces: string[] = [];
  let copied = 0;
  let length = 0;
  return {
    add(at, taken, text) {
      const from = length + (at - copied);
      pieces.push(below.text.slice(copied, at), text);
      if (pieces.length >= PIECES_A_CHUNK) {
        chunks.push(pieces.join(''));
        pieces = [];
      }
      length = from + text.length;
      copied = at + taken;
      decoding.records.add(from, length, at, copied);
    },
    done() {
      if (decoding.records.length === 0) return undefined;
      chunks.push(pieces.join(''), below.text.slice(copied));
      return { text: chunks.join(''), decoding };
    },
  };
}

/** What decoding learns of a text's line breaks, and what it does with escaped ones. */
interface LineBreaks {
  /** An escaped line break decodes to nothing: for the views without line breaks. */
  drop: boolean;
  /** Whether the text itself holds one. */
  raw: boolean;
  /** Whether an escape decoded to one. */
  escaped: boolean;
}

/**
 * The next layer of a view, or undefined when nothing in it is escaped. Only where an escape may start is
 * anything tried. The scan of the text itself notes whether it holds a line break in the same pass, so that
 * a body is not read a second time for that.
 */
function decodeOnce(view: View, lineBreaks: LineBreaks): View | undefined {
  const { text } = view;
  const layer = layerOver(view);
  const original = view.decoding === undefined;
  let candidates = original ? /[\\%&~\r\n]/g : /[\\%&~]/g;
  for (let match = candidates.exec(text); match !== null; match = candidates.exec(text)) {
    const i = match.index;
    if (original && isLineBreak(text[i])) {
      // One is enough to know: the scan stops at no more of them.
      lineBreaks.raw = true;
      candidates = /[\\%&~]/g;
      candidates.lastIndex = i + 1;
      continue;
    }
    const decoded = decodedAt(text, i);
    if (!decoded) continue;
    const lineBreak = isLineBreak(decoded.text);
    lineBreaks.escaped ||= lineBreak;
    layer.add(i, decoded.length, lineBreak && lineBreaks.drop ? '' : decoded.text);
    // What an escape took is not looked at again: "\\u0041" is an escaped backslash, then "u0041".
    candidates.lastIndex = i + decoded.length;
  }
  return layer.done();
}

/** Each run of CR and LF in a text, as [start, end); found with indexOf, much faster than a pattern. */
function rawLineBreaks(text: string): [number, number][] {
  const runs: [number, number][] = [];
  let [lf, cr] = [text.indexOf('\n'), text.indexOf('\r')];
  while (lf !== -1 || cr !== -1) {
    const at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    let end = at + 1;
    while (isLineBreak(text[end])) end++;
    runs.push([at, end]);
    // Each is searched again only once passed: a text with no CR is not scanned for one at every LF.
    if (lf !== -1 && lf < end) lf = text.indexOf('\n', end);
    if (cr !== -1 && cr < end) cr = text.indexOf('\r', end);
  }
  return runs;
}

/** The stretches of a decoded view's text that its own escapes turned into a line break (each one unit), in the original text. */
function decodedLineBreaks(view: View): [number, number][] {
  const { text, decoding } = view;
  const stretches: [number, number][] = [];
  for (const unit of decoding?.records.singleUnits() ?? []) if (isLineBreak(text[unit])) stretches.push(originalSpan(view, unit, unit + 1));
  return stretches;
}

/** Every stretch of the original text that one of the views decodes to a line break, in order, those that touch joined. */
function lineBreakStretches(views: View[], raw: boolean): [number, number][] {
  const stretches = [...(raw ? rawLineBreaks(views[0].text) : []), ...views.slice(1).flatMap(decodedLineBreaks)];
  stretches.sort((a, b) => a[0] - b[0]);
  const joined: [number, number][] = [];
  for (const [start, end] of stretches) {
    const last = joined[joined.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else joined.push([start, end]);
  }
  return joined;
}

/** The original text with these stretches taken out, each an escape decoded to nothing. */
function withoutStretches(original: View, stretches: [number, number][]): View {
  const layer = layerOver(original);
  for (const [start, end] of stretches) layer.add(start, end - start, '');
  return layer.done()!;
}

/** A view and up to `count` layers decoded from it by `decode`, as long as decoding changes anything. */
function layers(view: View, count: number, decode: (view: View) => View | undefined): View[] {
  const views = [view];
  for (let layer = 0; layer < count; layer++) {
    const next = decode(views[views.length - 1]);
    if (!next) break;
    views.push(next);
  }
  return views;
}

/**
 * The text itself, then each layer of it decoded, as long as decoding changes anything; then, when one of
 * these holds a line break, the text with every line break taken out, raw or escaped, and each layer
 * decoded from that.
 */
export function decodedViews(text: string): View[] {
  const lineBreaks: LineBreaks = { drop: false, raw: false, escaped: false };
  const views = layers({ text }, MAX_LAYERS, (view) => decodeOnce(view, lineBreaks));
  if (!lineBreaks.raw && !lineBreaks.escaped) return views;
  const without = withoutStretches(views[0], lineBreakStretches(views, lineBreaks.raw));
  const dropped: LineBreaks = { drop: true, raw: false, escaped: false };
  return [...views, ...layers(without, MAX_LAYERS, (view) => decodeOnce(view, dropped))];
}

/** The [start, end) of the original text that the units [from, to) of a view came from. */
export function originalSpan(view: View, from: number, to: number): [number, number] {
  return [startOf(view, from), endOf(view, to - 1)];
}
