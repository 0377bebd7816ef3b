import {
  BACKSLASH,
  BYTE_ORDER_MARK,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  CR,
  DOT,
  LF,
  LOWER_E,
  LOWER_F,
  LOWER_N,
  LOWER_T,
  LOWER_U,
  MINUS,
  NINE,
  OPEN_ARRAY,
  OPEN_OBJECT,
  PLUS,
  QUOTE,
  SPACE,
  TAB,
  UPPER_E,
  ZERO,
} from './json-chars.ts';
import { isIntegral, standIn, type NumberLiteral } from './json-literals.ts';

// The one scan of a JSON text by character codes. It checks the grammar without recursion, so it tells where
// a refused text breaks or that it nests too deep, and in a text JSON.parse accepted it finds the number
// literals a double changes and the keys an object repeats, each with the path to it.

export type Segment = string | number;

interface LiteralFound {
  offset: number;
  path: Segment[];
  literal: NumberLiteral;
  standIn: number;
}

/** A key repeated in one object: its pointer's segments and the offset of each occurrence's opening quote. */
export interface RepeatFound {
  path: Segment[];
  keyOffsets: number[];
}

// An object with more keys than this looks a new key up in a Map rather than comparing it with each earlier one.
const PAIRWISE_KEY_LIMIT = 32;
// A decimal of up to 15 significant digits is told apart from every other such decimal by the double nearest to it
// (doubles carry 15.95 decimal digits), so String gives its digits back.
const SHORT_DIGITS = 15;

// RFC 8259 section 7: the characters that may follow a backslash, besides "u".
const SHORT_ESCAPES = new Set([QUOTE, BACKSLASH, 47, 98, 102, 110, 114, 116]);

/** Why a text is refused; `offset` is where, never what. */
export class Fault {
  constructor(
    readonly what: string,
    readonly offset: number,
    readonly kind: 'syntax' | 'depth' = 'syntax',
  ) {}
}

/**
 * One pass over a JSON text without recursion. It checks the grammar as it goes (so it can tell where a
 * refused text breaks), and keeps a stack of open containers and of the keys of open objects, so that a
 * pointer is built only when something is found.
 */
export class Scanner {
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

export function skipSpace(text: string, from: number): number {
  let pos = from;
  while (isSpace(text.charCodeAt(pos))) pos++;
  return pos;
}

export function isSpace(c: number): boolean {
  return c <= SPACE && (c === SPACE || c === LF || c === CR || c === TAB);
}
