import { expect, test } from '@playwright/test';
import { NAMED, decodedViews, originalSpan } from '../../harness/secrets/decoded-view.ts';
import { pick, seeded, type Random } from '../support/seeded.ts';

// decodedViews and originalSpan against a plain reference: one that decodes a text unit by unit and keeps
// the original span of every unit in arrays. Many generated texts mix plain characters, every escape the
// views undo, escapes nested in escapes, broken and cut-off escapes, characters beyond ASCII, and line
// breaks, raw or escaped, some of them cutting an escape in two.

// ---- The reference: every unit of every layer, the obvious way ----

const HEX = /^[0-9a-fA-F]+$/;

// The table of character references is the module's; the way of decoding with it is the reference's own.

const SHORT: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const PUNCTUATION = /[!-/:-@[-`{-~]/;

type Decoded = { text: string; length: number } | undefined;

const isCodePoint = (n: number) => Number.isInteger(n) && n >= 0 && n <= 0x10ffff;

function referenceBackslash(text: string, i: number): Decoded {
  const next = text[i + 1];
  if (next === 'u' && text[i + 2] === '{') {
    const close = text.indexOf('}', i + 3);
    const digits = close === -1 ? '' : text.slice(i + 3, close);
    const n = digits.length > 0 && digits.length <= 6 && HEX.test(digits) ? parseInt(digits, 16) : NaN;
    return isCodePoint(n) ? { text: String.fromCodePoint(n), length: close + 1 - i } : undefined;
  }
  if (next === 'u' || next === 'x') {
    const found = (next === 'u' ? /^\\u([0-9a-fA-F]{4})/ : /^\\x([0-9a-fA-F]{2})/).exec(text.slice(i, i + 6));
    return found ? { text: String.fromCharCode(Number.parseInt(found[1], 16)), length: found[0].length } : undefined;
  }
  if (next !== undefined && SHORT[next] !== undefined) return { text: SHORT[next], length: 2 };
  if (next !== undefined && PUNCTUATION.test(next)) return { text: next, length: 2 };
  return undefined;
}

/**
 * A percent-encoded character, by the platform's own decoder rather than byte by byte: the shortest run of
 * one to four %XX that decodeURIComponent takes as one whole character. A U+FFFD decodes nothing, as in the module.
 */
function referencePercent(text: string, i: number): Decoded {
  for (let count = 1; count <= 4; count++) {
    const run = text.slice(i, i + 3 * count);
    if (!/^(%[0-9a-fA-F]{2})+$/.test(run) || run.length < 3 * count) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(run);
    } catch {
      continue;
    }
    return [...decoded].length === 1 && decoded !== '\ufffd' ? { text: decoded, length: run.length } : undefined;
  }
  return undefined;
}

function referenceCharacter(text: string, i: number): Decoded {
  const semi = text.indexOf(';', i + 1);
  if (semi === -1 || semi - i > 33) return undefined;
  const name = text.slice(i + 1, semi);
  if (Object.hasOwn(NAMED, name)) return { text: NAMED[name], length: semi + 1 - i };
  const n = /^#[0-9]{1,7}$/.test(name) ? parseInt(name.slice(1), 10) : /^#[xX][0-9a-fA-F]{1,6}$/.test(name) ? parseInt(name.slice(2), 16) : NaN;
  return isCodePoint(n) ? { text: String.fromCodePoint(n), length: semi + 1 - i } : undefined;
}

function referenceDecodedAt(text: string, i: number): Decoded {
  if (text[i] === '\\') return referenceBackslash(text, i);
  if (text[i] === '%') return referencePercent(text, i);
  if (text[i] === '&') return referenceCharacter(text, i);
  if (text[i] === '~') return text[i + 1] === '0' ? { text: '~', length: 2 } : text[i + 1] === '1' ? { text: '/', length: 2 } : undefined;
  return undefined;
}

interface ReferenceView {
  text: string;
  starts: number[];
  ends: number[];
}

const isLineBreak = (unit: string) => unit === '\n' || unit === '\r';

/** The next layer; with `dropLineBreaks`, an escape that decodes to a line break leaves no unit. */
function referenceDecodeOnce(view: ReferenceView, dropLineBreaks: boolean): ReferenceView | undefined {
  const { text } = view;
  const out: ReferenceView = { text: '', starts: [], ends: [] };
  let changed = false;
  for (let i = 0; i < text.length; ) {
    const decoded = referenceDecodedAt(text, i);
    const length = decoded?.length ?? 1;
    const piece = decoded && dropLineBreaks && isLineBreak(decoded.text) ? '' : (decoded?.text ?? text[i]);
    for (let k = 0; k < piece.length; k++) {
      out.starts.push(view.starts[i]);
      out.ends.push(view.ends[i + length - 1]);
    }
    out.text += piece;
    changed ||= decoded !== undefined;
    i += length;
  }
  return changed ? out : undefined;
}

/** A view and each layer decoded from it, three at most, as long as decoding changes anything. */
function referenceChain(view: ReferenceView, dropLineBreaks: boolean): ReferenceView[] {
  const views = [view];
  for (let layer = 0; layer < 3; layer++) {
    const next = referenceDecodeOnce(views[views.length - 1], dropLineBreaks);
    if (!next) break;
    views.push(next);
  }
  return views;
}

/** Whether each unit of the original text went into a line break of one of the layers. */
function inLineBreaks(layers: ReferenceView[], length: number): boolean[] {
  const marked = Array.from({ length }, () => false);
  for (const view of layers) {
    for (let i = 0; i < view.text.length; i++) {
      if (isLineBreak(view.text[i])) marked.fill(true, view.starts[i], view.ends[i]);
    }
  }
  return marked;
}

/**
 * The layers of a text, and, when one of them holds a line break, the layers of the text without line
 * breaks: the original text without every unit that some layer decodes into a line break, then each layer
 * decoded from that, an escape that decodes to a line break leaving no unit.
 */
function referenceViews(text: string): { layers: ReferenceView[]; unwrapped: ReferenceView[] } {
  const units = Array.from({ length: text.length }, (_, i) => i);
  const layers = referenceChain({ text, starts: units, ends: units.map((i) => i + 1) }, false);
  if (!layers.some((view) => /[\r\n]/.test(view.text))) return { layers, unwrapped: [] };
  const marked = inLineBreaks(layers, text.length);
  const kept = units.filter((i) => !marked[i]);
  const without = { text: kept.map((i) => text[i]).join(''), starts: kept, ends: kept.map((i) => i + 1) };
  return { layers, unwrapped: referenceChain(without, true) };
}

// ---- Texts to decode ----

const hex = (n: number, width: number, lower: boolean) => (lower ? n.toString(16) : n.toString(16).toUpperCase()).padStart(width, '0');

const PLAIN = [...'aZ09 ."\'/:;*{}#xXu~%&\\', 'é', '€', '😀', '\ud800', '\udfff', '\n', '\r', '\u0000'];

// Ways to write one character, each a reader of the views undoes (or, for some characters, cannot).
const ENCODERS: ((c: string, random: Random) => string)[] = [
  (c, random) => [...c].map((u) => `\\u${hex(u.charCodeAt(0), 4, random() < 0.5)}`).join(''),
  (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`,
  (c, random) => (c.charCodeAt(0) < 0x100 ? `\\x${hex(c.charCodeAt(0), 2, random() < 0.5)}` : c),
  (c) => ({ '"': '\\"', '/': '\\/', '\\': '\\\\', '\n': '\\n', '*': '\\*' })[c] ?? c,
  (c, random) => [...Buffer.from(c)].map((b) => `%${hex(b, 2, random() < 0.5)}`).join(''),
  (c) => `&#${c.codePointAt(0)};`,
  (c, random) => `&#${random() < 0.5 ? 'x' : 'X'}${c.codePointAt(0)!.toString(16)};`,
  (c) => ({ '&': '&amp;', '/': '&sol;', '*': '&ast;', ';': '&semi;', '\\': '&bsol;', '%': '&percnt;', '{': '&lbrace;' })[c] ?? c,
  (c) => ({ '~': '~0', '/': '~1' })[c] ?? c,
];

// Escapes that are broken, cut off, too long, out of range, or only look like escapes.
const AWKWARD = [
  '\\',
  '\\u12',
  '\\u{',
  '\\u{}',
  '\\u{110000}',
  '\\u{00002a}',
  '\\u{10FFFF}',
  '\\u{0000041}',
  `\\u{41${' '.repeat(20)}}`,
  '\\x4',
  '\\q',
  '\\\\u0041',
  '%',
  '%4',
  '%zz',
  '%E2%82',
  '%C0%80',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%2525',
  '&',
  '&amp',
  '&#;',
  '&#x;',
  '&#x110000;',
  '&#0000042;',
  '&#x00002a;',
  '&#99999999;',
  '&constructor;',
  '&toString;',
  '&__proto__;',
  `&${'a'.repeat(32)};`,
  `&${'a'.repeat(40)};`,
  '&#x26;amp;',
  '&amp;#42;',
  '~',
  '~2',
  '~01',
  '\\u0025252A',
  '%5Cu002A',
  '&#92;u0041',
];

function encodedCharacter(random: Random): string {
  let text = pick(random, PLAIN);
  for (let layer = Math.floor(random() * 4); layer > 0; layer--) text = pick(random, ENCODERS)(text, random);
  return text;
}

const LINE_BREAKS = ['\n', '\r\n', '\r', '\n\n'];

/** `text` with line breaks put in anywhere, inside an escape too, as a writer that wraps lines would. */
function wrappedAnywhere(random: Random, text: string): string {
  let out = text;
  for (let n = Math.floor(random() * 4); n > 0; n--) {
    const at = Math.floor(random() * (out.length + 1));
    out = `${out.slice(0, at)}${pick(random, LINE_BREAKS)}${out.slice(at)}`;
  }
  return out;
}

function generatedText(random: Random): string {
  const parts: string[] = [];
  for (let n = Math.floor(random() * 40); n > 0; n--) {
    const r = random();
    parts.push(r < 0.4 ? pick(random, PLAIN) : r < 0.8 ? encodedCharacter(random) : pick(random, AWKWARD));
  }
  return random() < 0.3 ? wrappedAnywhere(random, parts.join('')) : parts.join('');
}

// ---- The comparison ----

/** How the views of `text` differ from the reference's: their texts, and the original span of every unit. */
function differences(text: string): string[] {
  const { layers, unwrapped } = referenceViews(text);
  const expected = [...layers, ...unwrapped];
  const actual = decodedViews(text);
  const found: string[] = [];
  if (actual.length !== expected.length) found.push(`${actual.length} views, not ${expected.length}`);
  expected.forEach((want, layer) => {
    const view = actual[layer];
    if (!view) return;
    if (view.text !== want.text) found.push(`view ${layer} is ${JSON.stringify(view.text)}, not ${JSON.stringify(want.text)}`);
    for (let i = 0; i < want.text.length; i++) {
      const [start, end] = originalSpan(view, i, i + 1);
      if (start !== want.starts[i] || end !== want.ends[i]) found.push(`view ${layer} unit ${i}: [${start}, ${end}), not [${want.starts[i]}, ${want.ends[i]})`);
    }
    if (want.text.length > 0) {
      const [start, end] = originalSpan(view, 0, want.text.length);
      if (start !== want.starts[0] || end !== want.ends[want.text.length - 1]) found.push(`view ${layer} as a whole: [${start}, ${end})`);
    }
  });
  return found.length === 0 ? [] : [`${JSON.stringify(text)}: ${found.slice(0, 3).join('; ')}`];
}

test('the handwritten awkward escapes decode as the reference decodes them, alone and after one another', () => {
  const texts = [...AWKWARD, AWKWARD.join(''), AWKWARD.join(' x '), ...AWKWARD.map((a) => `${a}%41\\u0041&#65;~1`)];
  expect(texts.flatMap(differences)).toEqual([]);
});

test('the handwritten awkward escapes decode as the reference decodes them with a line break in every place', () => {
  const texts = AWKWARD.flatMap((a) => Array.from({ length: a.length + 1 }, (_, at) => `x${a.slice(0, at)}\r\n${a.slice(at)}%41`));
  expect(texts.flatMap(differences)).toEqual([]);
});

const GENERATED = (() => {
  const random = seeded(0x71e35);
  return Array.from({ length: 4000 }, () => generatedText(random));
})();

test('generated texts decode as the reference decodes them: every view, and where every unit of it came from', () => {
  // The generator must reach every depth of both kinds of view, or the comparison proves less than it says.
  const shapes = GENERATED.map(referenceViews);
  expect([...new Set(shapes.map((v) => v.layers.length))].sort()).toEqual([1, 2, 3, 4]);
  expect([...new Set(shapes.map((v) => v.unwrapped.length))].sort()).toEqual([0, 1, 2, 3, 4]);
  expect(GENERATED.flatMap(differences).slice(0, 20)).toEqual([]);
});

test('a text that holds no line break, raw or escaped, gets the same views as before, and no more', () => {
  const plain = GENERATED.filter((t) => referenceViews(t).unwrapped.length === 0);
  expect(plain.length).toBeGreaterThan(1000);
  const texts = (views: { text: string }[]) => JSON.stringify(views.map((view) => view.text));
  expect(plain.filter((t) => texts(decodedViews(t)) !== texts(referenceViews(t).layers))).toEqual([]);
});

test('a text with escapes far apart keeps every unit between them where it was', () => {
  const filler = 'plain text, R&D and 100% sure ~ '.repeat(500);
  const text = `${filler}\\u0041${filler}%2541${filler}&amp;#x2a;${filler}`;
  expect(differences(text)).toEqual([]);
});

test('a text with line breaks far apart, one of them escaped, keeps every unit between them where it was', () => {
  const filler = 'plain text, R&D and 100% sure ~ '.repeat(500);
  const text = `${filler}\r\n${filler}%2\n541${filler}\\n${filler}&am\np;#x2a;\n`;
  expect(differences(text)).toEqual([]);
});

test('a text of tens of thousands of escapes, runs of one kind and mixed ones, line breaks among them, decodes as the reference decodes it', () => {
  // Runs of escapes of one width are held as one record, and a layer's text is joined in chunks of a few
  // thousand pieces: both are crossed here many times.
  const random = seeded(0x5ca1e);
  const parts: string[] = [];
  while (parts.length < 30_000) {
    const run = pick(random, ['%41', '%2541', '\\u0041', '&#65;', '~1', '%0A', '\\n']);
    for (let n = 1 + Math.floor(random() * 400); n > 0; n--) parts.push(run);
    for (let n = Math.floor(random() * 20); n > 0; n--) parts.push(random() < 0.7 ? encodedCharacter(random) : pick(random, PLAIN));
  }
  expect(differences(parts.join(''))).toEqual([]);
});
