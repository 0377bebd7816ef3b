// Reads a response body once and keeps what JSON.parse followed by serialisation would change: number
// literals a double cannot hold or prints differently (RFC 8259 section 6 leaves their precision to the
// reader), repeated keys (section 4: names SHOULD be unique, and readers differ on which one wins), and
// where a text stops being JSON, told without quoting it (bodies may hold secrets).
// JSON.parse gives the value and alone decides what is JSON; one scan by character codes finds the rest.

export interface NumberLiteral {
  /** The literal exactly as written in the body, e.g. "1e400", "-0", "1.0", "9007199254740993.5". */
  text: string;
  /** Whether the literal's exact decimal value is a whole number (1.0, 1e400, -0 are; 0.5, 1e-400 are not). */
  integral: boolean;
}

export interface JsonBody {
  /** The value as JSON.parse reads it (the last of duplicate keys wins), with the stand-ins below for number literals a double cannot hold. */
  value: unknown;
  /**
   * Further readings of a body whose objects repeat a key: reading k takes the k-th occurrence of every repeated key
   * (the last one where a key occurs fewer times), k = 1 .. (most occurrences - 1), as value takes the last. Empty when no key repeats.
   * A reader other than JSON.parse may take any of them, so the judge validates each.
   */
  otherReadings: unknown[];
  /** JSON pointers (RFC 6901, e.g. "/projects/3/owners/0/name") of every repeated key, each once, in document order. */
  repeatedKeys: string[];
  /** By JSON pointer: each number literal whose JSON.stringify(value) would not give back its text (1e400, -0, 1.0, 1E2, 0.10 ...). */
  literals: Map<string, NumberLiteral>;
}

export type JsonBodyRead = { ok: true; body: JsonBody } | { ok: false; reason: string; kind: 'syntax' | 'depth' };

type Segment = string | number;

interface LiteralFound {
  offset: number;
  path: Segment[];
  literal: NumberLiteral;
  standIn: number;
}

/** A key repeated in one object: its pointer's segments and the offset of each occurrence's opening quote. */
interface RepeatFound {
  path: Segment[];
  keyOffsets: number[];
}

const DEFAULT_MAX_DEPTH = 512;
// An object with more keys than this looks a new key up in a Map rather than comparing it with each earlier one.
const PAIRWISE_KEY_LIMIT = 32;
// A decimal of up to 15 significant digits is told apart from every other such decimal by the double nearest to it
// (doubles carry 15.95 decimal digits), so String gives its digits back.
const SHORT_DIGITS = 15;
const TWO_TO_53 = 2 ** 53;

const TAB = 9,
  LF = 10,
  CR = 13,
  SPACE = 32,
  QUOTE = 34,
  PLUS = 43,
  COMMA = 44,
  MINUS = 45,
  DOT = 46;
const ZERO = 48,
  NINE = 57,
  COLON = 58,
  UPPER_E = 69,
  BACKSLASH = 92;
const LOWER_E = 101,
  LOWER_F = 102,
  LOWER_N = 110,
  LOWER_T = 116,
  LOWER_U = 117;
const OPEN_ARRAY = 91,
  CLOSE_ARRAY = 93,
  OPEN_OBJECT = 123,
  CLOSE_OBJECT = 125,
  BYTE_ORDER_MARK = 0xfeff;
// RFC 8259 section 7: the characters that may follow a backslash, besides "u".
const SHORT_ESCAPES = new Set([QUOTE, BACKSLASH, 47, 98, 102, 110, 114, 116]);

/** Why a text is refused; `offset` is where, never what. */
class Fault {
  constructor(
    readonly what: string,
    readonly offset: number,
    readonly kind: 'syntax' | 'depth' = 'syntax',
  ) {}
}

/** Reads a JSON text; never throws; nesting beyond maxDepth (arrays and objects, default 512) is refused without recursion. */
export function readJsonBody(text: string, maxDepth = DEFAULT_MAX_DEPTH): JsonBodyRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refusal(text, maxDepth);
  }
  const scanner = new Scanner(text, maxDepth, false);
  const fault = scanner.run();
  if (fault) return refused(text, fault);
  return { ok: true, body: assemble(text, value, scanner, maxDepth) };
}

// JSON.parse's own message quotes the text, so the place is found again by the scan.
function refusal(text: string, maxDepth: number): JsonBodyRead {
  if (text.length === 0) return { ok: false, kind: 'syntax', reason: 'the body is empty' };
  const fault = new Scanner(text, maxDepth, true).run();
  // Only an engine limit makes JSON.parse refuse a text the scan accepts.
  if (!fault) return { ok: false, kind: 'syntax', reason: 'the body could not be parsed' };
  return refused(text, fault);
}

function refused(text: string, fault: Fault): JsonBodyRead {
  if (fault.kind === 'depth') return { ok: false, kind: 'depth', reason: fault.what };
  return { ok: false, kind: 'syntax', reason: `the body is not JSON: ${fault.what} at ${lineAndColumn(text, fault.offset)}` };
}

function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let lf = text.indexOf('\n'); lf !== -1 && lf < offset; lf = text.indexOf('\n', lf + 1)) [line, lineStart] = [line + 1, lf + 1];
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/**
 * One pass over a JSON text without recursion. It checks the grammar as it goes (so it can tell where a
 * refused text breaks), and keeps a stack of open containers and of the keys of open objects, so that a
 * pointer is built only when something is found.
 */
class Scanner {
  readonly literals: LiteralFound[] = [];
  /** By the offset of the key's first occurrence. */
  readonly repeats = new Map<number, RepeatFound>();
  private depth = 0;
  // By depth of the open container: whether it is an object, where its keys start in the key stack, an array's
  // current index, a 32-bit summary of an object's keys so far, and the keys of an object too large to compare pairwise.
  private readonly isObject: boolean[] = [];
  private readonly keyBase: number[] = [];
  private readonly index: number[] = [];
  private readonly keyBits: number[] = [];
  private readonly keyMaps: (Map<string, number> | undefined)[] = [];
  // The keys of all open objects: where the text between the quotes starts and its length, complemented (~length,
  // so negative) when it holds an escape.
  private readonly keyStart: number[] = [];
  private readonly keyLength: number[] = [];
  private keyTop = 0;
  /** Whether the string read last held an escape. */
  private escaped = false;
  // Where the next backslash is at or after the current string (2^32 - 1 when there is none), so that a string
  // without one is found by indexOf alone.
  private nextBackslash = -1;

  /** `checkStrings` is false for a text JSON.parse accepted: its strings need only be found, not checked. */
  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly checkStrings: boolean,
  ) {}

  run(): Fault | undefined {
    try {
      this.values();
      return undefined;
    } catch (error) {
      if (error instanceof Fault) return error;
      throw error;
    }
  }

  // One loop with the text and position in local variables, and the common tokens handled in it: this pass runs
  // over bodies of hundreds of megabytes right after JSON.parse and has to cost well under half as much.
  private values(): void {
    const text = this.text;
    let pos = 0;
    for (;;) {
      let c = text.charCodeAt(pos);
      while (c <= SPACE && isSpace(c)) c = text.charCodeAt(++pos);
      if (c === QUOTE) pos = this.string(pos);
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.open(pos, c === OPEN_OBJECT);
        pos = skipSpace(text, pos + 1);
        // An empty container is closed below like any finished value.
        if (text.charCodeAt(pos) !== (c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY)) {
          if (c === OPEN_OBJECT) pos = this.member(pos);
          continue;
        }
      } else pos = this.scalar(pos, c);
      // After a value: closing brackets, then a comma and the next value (with its key in an object), or the end.
      for (;;) {
        c = text.charCodeAt(pos);
        while (c <= SPACE && isSpace(c)) c = text.charCodeAt(++pos);
        if (c === COMMA && this.depth > 0) {
          if (this.isObject[this.depth - 1]) pos = this.member(skipSpace(text, pos + 1));
          else {
            this.index[this.depth - 1]++;
            pos++;
          }
          break;
        }
        if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) pos = this.close(pos, c);
        else if (this.depth === 0 && pos === text.length) return;
        else throw this.afterValueFault(pos);
      }
    }
  }

  /** Closes the innermost container with the character `c` at `pos`; returns the position after it. */
  private close(pos: number, c: number): number {
    if (this.depth === 0 || c !== (this.isObject[this.depth - 1] ? CLOSE_OBJECT : CLOSE_ARRAY)) throw this.afterValueFault(pos);
    this.depth--;
    this.keyTop = this.keyBase[this.depth];
    return pos + 1;
  }

  private afterValueFault(pos: number): Fault {
    if (this.depth === 0) return this.fault(pos, 'after the JSON value');
    const container = this.isObject[this.depth - 1] ? 'object' : 'array';
    return this.fault(pos, `where a comma or the end of the ${container} is expected`, `inside an ${container}`);
  }

  private open(pos: number, isObject: boolean): void {
    if (this.depth === this.maxDepth) throw new Fault(`the JSON body nests deeper than ${this.maxDepth} levels`, pos, 'depth');
    const d = this.depth++;
    this.isObject[d] = isObject;
    this.keyBase[d] = this.keyTop;
    this.index[d] = 0;
    this.keyBits[d] = 0;
    this.keyMaps[d] = undefined;
  }

  /** Reads a key and its colon; returns the position after the colon. */
  private member(pos: number): number {
    if (this.text.charCodeAt(pos) !== QUOTE) throw this.fault(pos, 'where a key is expected');
    const end = this.string(pos);
    this.addKey(pos + 1, end - 1);
    const colon = this.text.charCodeAt(end) === COLON ? end : skipSpace(this.text, end);
    if (this.text.charCodeAt(colon) !== COLON) throw this.fault(colon, 'where a colon is expected');
    return colon + 1;
  }

  private scalar(pos: number, c: number): number {
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.number(pos);
    switch (c) {
      case LOWER_T:
        return this.word(pos, 'true');
      case LOWER_F:
        return this.word(pos, 'false');
      case LOWER_N:
        return this.word(pos, 'null');
      default:
        throw this.fault(pos, 'where a value is expected');
    }
  }

  /** Returns the position after the closing quote. */
  private string(pos: number): number {
    if (!this.checkStrings) {
      if (this.nextBackslash < pos) this.nextBackslash = this.text.indexOf('\\', pos) >>> 0;
      const end = this.text.indexOf('"', pos + 1);
      if (end < this.nextBackslash) {
        this.escaped = false;
        return end + 1;
      }
    }
    return this.checkedString(pos);
  }

  /** Reads a string character by character, checking each; returns the position after the closing quote. */
  private checkedString(pos: number): number {
    const text = this.text;
    const length = text.length;
    let escaped = false;
    for (let i = pos + 1; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.escaped = escaped;
        return i + 1;
      }
      if (c === BACKSLASH) {
        i = this.escape(i);
        escaped = true;
      } else if (c < SPACE) throw new Fault('an unescaped control character in a string', i);
    }
    throw new Fault('the text ends inside a string', length);
  }

  /** Checks the escape at the backslash `at`; returns the position of its last character. */
  private escape(at: number): number {
    const c = this.text.charCodeAt(at + 1);
    if (SHORT_ESCAPES.has(c)) return at + 1;
    if (c !== LOWER_U) throw this.fault(at + 1, 'in an escape in a string', 'inside a string');
    for (let i = at + 2; i < at + 6; i++) {
      if (!isHexDigit(this.text.charCodeAt(i))) throw this.fault(i, 'in an escape in a string', 'inside a string');
    }
    return at + 5;
  }

  private word(pos: number, word: string): number {
    for (let i = 1; i < word.length; i++) {
      if (this.text.charCodeAt(pos + i) !== word.charCodeAt(i)) throw this.fault(pos + i, 'in a literal name', 'inside a literal name');
    }
    return pos + word.length;
  }

  /** RFC 8259 section 6: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?; returns the position after it. */
  private number(start: number): number {
    const text = this.text;
    const negative = text.charCodeAt(start) === MINUS;
    const wholeStart = negative ? start + 1 : start;
    const zero = text.charCodeAt(wholeStart) === ZERO;
    let pos = zero ? wholeStart + 1 : this.digits(wholeStart);
    // Whether the literal certainly prints back as written, known without slicing it: a short integer except "-0",
    // or a short decimal (checked below).
    let plain = pos - wholeStart <= SHORT_DIGITS && !(negative && zero);
    if (text.charCodeAt(pos) === DOT) {
      const fractionStart = pos + 1;
      pos = this.digits(fractionStart);
      plain = this.isShortDecimal(wholeStart, fractionStart, pos);
    }
    const e = text.charCodeAt(pos);
    if (e === UPPER_E || e === LOWER_E) {
      const sign = text.charCodeAt(pos + 1);
      pos = this.digits(sign === PLUS || sign === MINUS ? pos + 2 : pos + 1);
      plain = false;
    }
    if (!plain) this.literal(start, pos);
    return pos;
  }

  // At most 15 significant digits, no trailing zero and no exponent: the shortest text that gives the same double
  // is then the literal itself, unless the value is below 1e-6, where String switches to an exponent.
  private isShortDecimal(wholeStart: number, fractionStart: number, end: number): boolean {
    const text = this.text;
    if (text.charCodeAt(end - 1) === ZERO) return false;
    if (text.charCodeAt(wholeStart) !== ZERO) return end - wholeStart - 1 <= SHORT_DIGITS;
    let first = fractionStart;
    while (text.charCodeAt(first) === ZERO) first++;
    return first - fractionStart <= 5 && end - first <= SHORT_DIGITS;
  }

  /** Reads one or more digits; returns the position after them. */
  private digits(from: number): number {
    let pos = from;
    for (let c = this.text.charCodeAt(pos); c >= ZERO && c <= NINE; c = this.text.charCodeAt(++pos));
    if (pos === from) throw this.fault(pos, 'in a number', 'inside a number');
    return pos;
  }

  private literal(start: number, end: number): void {
    const text = this.text.slice(start, end);
    const parsed = Number(text);
    if (String(parsed) === text) return;
    const integral = isIntegral(text);
    this.literals.push({ offset: start, path: this.path(), literal: { text, integral }, standIn: standIn(text, parsed, integral) });
  }

  private addKey(start: number, end: number): void {
    const d = this.depth - 1;
    const base = this.keyBase[d];
    const top = this.keyTop++;
    this.keyStart[top] = start;
    this.keyLength[top] = this.escaped ? ~(end - start) : end - start;
    // A key whose bit is not yet set repeats no earlier key of the object, so most keys are never compared. A key
    // with an escape sets every bit: its text is not its value.
    const bit = this.escaped ? -1 : 1 << ((this.text.charCodeAt(start) * 7 + this.text.charCodeAt(end - 1) + end - start) & 31);
    const earlier = this.keyBits[d];
    this.keyBits[d] = earlier | bit;
    // Past the pairwise limit every key goes to the object's Map, which must hold them all.
    if ((earlier & bit) === 0 && top - base <= PAIRWISE_KEY_LIMIT) return;
    const first = top - base <= PAIRWISE_KEY_LIMIT ? this.findPairwise(base, top) : this.findInMap(d, base, top);
    if (first !== -1) this.noteRepeat(first, top);
  }

  /** The first earlier key of the object equal to key `top`, or -1. */
  private findPairwise(base: number, top: number): number {
    const length = this.keyLength[top];
    for (let i = base; i < top; i++) {
      const other = this.keyLength[i];
      // Keys without escapes are equal when their texts are; "\u0061" equals "a", so a key with one is decoded.
      if (
        other === length && length >= 0
          ? this.sameText(this.keyStart[i], this.keyStart[top], length)
          : (other < 0 || length < 0) && this.keyAt(i) === this.keyAt(top)
      )
        return i;
    }
    return -1;
  }

  private findInMap(d: number, base: number, top: number): number {
    let keys = this.keyMaps[d];
    if (!keys) {
      keys = new Map();
      for (let i = base; i < top; i++) if (!keys.has(this.keyAt(i))) keys.set(this.keyAt(i), i);
      this.keyMaps[d] = keys;
    }
    const key = this.keyAt(top);
    const first = keys.get(key);
    if (first !== undefined) return first;
    keys.set(key, top);
    return -1;
  }

  private sameText(a: number, b: number, length: number): boolean {
    for (let i = 0; i < length; i++) if (this.text.charCodeAt(a + i) !== this.text.charCodeAt(b + i)) return false;
    return true;
  }

  private keyAt(i: number): string {
    const start = this.keyStart[i];
    const length = this.keyLength[i];
    if (length >= 0) return this.text.slice(start, start + length);
    return JSON.parse(this.text.slice(start - 1, start + ~length + 1)) as string;
  }

  private noteRepeat(first: number, top: number): void {
    const firstOffset = this.keyStart[first] - 1;
    let repeat = this.repeats.get(firstOffset);
    if (!repeat) this.repeats.set(firstOffset, (repeat = { path: this.path(), keyOffsets: [firstOffset] }));
    repeat.keyOffsets.push(this.keyStart[top] - 1);
  }

  /** The segments of the pointer to the current position; an object's current key is the last one it pushed. */
  private path(): Segment[] {
    const path: Segment[] = [];
    for (let d = 0; d < this.depth; d++) {
      path.push(this.isObject[d] ? this.keyAt((d + 1 < this.depth ? this.keyBase[d + 1] : this.keyTop) - 1) : this.index[d]);
    }
    return path;
  }

  /** A fault at `pos`, told as the end of the text when the text ends there. */
  private fault(pos: number, where: string, whereAtEnd = where): Fault {
    if (pos >= this.text.length) return new Fault(`the text ends ${whereAtEnd}`, this.text.length);
    if (this.text.charCodeAt(pos) === BYTE_ORDER_MARK) return new Fault(`unexpected byte order mark ${where}`, pos);
    return new Fault(`unexpected character ${where}`, pos);
  }
}

function isHexDigit(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Whether a number literal's exact decimal value is whole, from its digits and exponent alone. */
function isIntegral(text: string): boolean {
  let [fractionDigits, trailingZeros, inFraction, zero] = [0, 0, false, true];
  let i = text.charCodeAt(0) === MINUS ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === UPPER_E || c === LOWER_E) break;
    if (c === DOT) inFraction = true;
    else {
      if (inFraction) fractionDigits++;
      trailingZeros = c === ZERO ? trailingZeros + 1 : 0;
      zero &&= c === ZERO;
    }
  }
  return zero || exponent(text) - fractionDigits + trailingZeros >= 0;
}

// Clamped far beyond any digit count a string can hold, so a huge exponent keeps its sign and its effect.
function exponent(text: string): number {
  const at = Math.max(text.indexOf('e'), text.indexOf('E'));
  if (at === -1) return 0;
  let value = 0;
  for (let i = at + 1; i < text.length; i++) if (text.charCodeAt(i) >= ZERO) value = Math.min(value * 10 + text.charCodeAt(i) - ZERO, 1e12);
  return text.charCodeAt(at + 1) === MINUS ? -value : value;
}

/** What stands for a literal in `value`, so that type, minimum and maximum judge it as its exact value. */
function standIn(text: string, parsed: number, integral: boolean): number {
  if (parsed === Infinity || parsed === -Infinity) return Math.sign(parsed) * Number.MAX_VALUE;
  const zero = integral && /^-?[0.]*(?:[eE]|$)/.test(text);
  if (parsed === 0 && !zero) return (text.charCodeAt(0) === MINUS ? -1 : 1) * Number.MIN_VALUE;
  if (!integral && Number.isInteger(parsed) && Math.abs(parsed) < TWO_TO_53) return nextDouble(parsed, Math.abs(parsed) === wholePart(text));
  return parsed;
}

/** The whole part of |x| for a literal that is not whole (so its point falls inside its digits). */
function wholePart(text: string): number {
  const [whole, fraction = ''] = text.replace('-', '').split(/[eE]/)[0].split('.');
  const point = whole.length + exponent(text);
  return point <= 0 ? 0 : Number((whole + fraction).slice(0, point));
}

const double = new Float64Array(1);
const bits = new BigUint64Array(double.buffer);

/** The neighbouring double of a non-zero `d`, away from zero or towards it. */
function nextDouble(d: number, awayFromZero: boolean): number {
  double[0] = d;
  bits[0] += awayFromZero ? 1n : -1n;
  return double[0];
}

function assemble(text: string, parsed: unknown, scanner: Scanner, maxDepth: number): JsonBody {
  const repeats = [...scanner.repeats.values()].sort((a, b) => a.keyOffsets[0] - b.keyOffsets[0]);
  const shadows = shadowedSpans(text, repeats);
  let value = parsed;
  const literals = new Map<string, NumberLiteral>();
  // A literal in a value that a later occurrence of its key replaces is not in `value`; its reading has it.
  for (const found of scanner.literals.filter((l) => !isShadowed(shadows, l.offset))) {
    literals.set(pointer(found.path), found.literal);
    value = setAt(value, found.path, found.standIn);
  }
  const shown = repeats.filter((r) => !isShadowed(shadows, r.keyOffsets[0])).sort((a, b) => a.keyOffsets.at(-1)! - b.keyOffsets.at(-1)!);
  const readingCount = repeats.reduce((most, r) => Math.max(most, r.keyOffsets.length - 1), 0);
  const otherReadings = Array.from({ length: readingCount }, (_, i) => reading(text, value, shown, i + 1, maxDepth));
  return { value, otherReadings, repeatedKeys: [...new Set(repeats.map((r) => pointer(r.path)))], literals };
}

/**
 * Reading k of `value`: each repeated key takes its k-th occurrence, read on its own (so its literals keep their
 * stand-ins and its own repeated keys give their k-th reading). Only the containers on the way are copied.
 */
function reading(text: string, value: unknown, repeats: RepeatFound[], k: number, maxDepth: number): unknown {
  // `repeats` are in the order of their last occurrences, so a key inside a replaced value comes after it.
  const copies = new Set<object>();
  let root = value;
  let replacedUntil = -1;
  for (const repeat of repeats) {
    const last = repeat.keyOffsets.at(-1)!;
    // Keys inside a value this reading has replaced are not in the reading.
    if (last < replacedUntil || k >= repeat.keyOffsets.length) continue;
    const span = memberValue(text, repeat.keyOffsets[k - 1]);
    const occurrence = readJsonBody(text.slice(span[0], span[1]), maxDepth) as { ok: true; body: JsonBody };
    const { otherReadings } = occurrence.body;
    root = copyingSetAt(root, repeat.path, k <= otherReadings.length ? otherReadings[k - 1] : occurrence.body.value, copies);
    replacedUntil = Math.max(replacedUntil, memberValue(text, last)[1]);
  }
  return root;
}

/** The values of earlier occurrences of repeated keys, as sorted, disjoint [start, end) spans. */
function shadowedSpans(text: string, repeats: RepeatFound[]): number[][] {
  const spans = repeats.flatMap((r) => r.keyOffsets.slice(0, -1).map((offset) => memberValue(text, offset))).sort((a, b) => a[0] - b[0]);
  const merged: number[][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  return merged;
}

function isShadowed(spans: number[][], offset: number): boolean {
  let [low, high] = [0, spans.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (spans[mid][1] <= offset) low = mid + 1;
    else high = mid;
  }
  return low < spans.length && spans[low][0] <= offset;
}

/** The [start, end) of the value of the member whose key's opening quote is at `keyOffset`, in a text known to be JSON. */
function memberValue(text: string, keyOffset: number): number[] {
  const start = skipSpace(text, skipSpace(text, stringEnd(text, keyOffset)) + 1);
  return [start, valueEnd(text, start)];
}

function valueEnd(text: string, start: number): number {
  let [pos, depth] = [start, 0];
  do {
    const c = text.charCodeAt(pos);
    if (c === QUOTE) pos = stringEnd(text, pos);
    else if (depth === 0 && c !== OPEN_ARRAY && c !== OPEN_OBJECT) return scalarEnd(text, pos);
    else {
      if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
      else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
      pos++;
    }
  } while (depth > 0);
  return pos;
}

function scalarEnd(text: string, from: number): number {
  let pos = from;
  for (let c = text.charCodeAt(pos); pos < text.length && c !== COMMA && c !== CLOSE_ARRAY && c !== CLOSE_OBJECT && !isSpace(c); c = text.charCodeAt(++pos));
  return pos;
}

function stringEnd(text: string, quote: number): number {
  let pos = quote + 1;
  for (let c = text.charCodeAt(pos); c !== QUOTE; c = text.charCodeAt(pos)) pos += c === BACKSLASH ? 2 : 1;
  return pos + 1;
}

function skipSpace(text: string, from: number): number {
  let pos = from;
  while (isSpace(text.charCodeAt(pos))) pos++;
  return pos;
}

function isSpace(c: number): boolean {
  return c <= SPACE && (c === SPACE || c === LF || c === CR || c === TAB);
}

function pointer(path: Segment[]): string {
  return path.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

// Every key on a path is an own property of a JSON.parse result or of its spread copy ("__proto__" too), so
// assignment sets that property and never reaches a setter.
function setAt(root: unknown, path: Segment[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  let node = root as Record<Segment, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<Segment, unknown>;
  node[path[path.length - 1]] = leaf;
  return root;
}

function copyingSetAt(root: unknown, path: Segment[], leaf: unknown, copies: Set<object>): unknown {
  const top = copyOnce(root, copies);
  let node = top;
  for (const segment of path.slice(0, -1)) node = node[segment] = copyOnce(node[segment], copies);
  node[path[path.length - 1]] = leaf;
  return top;
}

function copyOnce(node: unknown, copies: Set<object>): Record<Segment, unknown> {
  const container = node as Record<Segment, unknown>;
  if (copies.has(container)) return container;
  const copy = Array.isArray(container) ? [...container] : { ...container };
  copies.add(copy);
  return copy as Record<Segment, unknown>;
}
