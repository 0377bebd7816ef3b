import type { NumberLiteral } from './json-literals.ts';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-chars.ts';
import { isSpace, skipSpace, type RepeatFound, type Scanner, type Segment } from './json-scanner.ts';

// Puts a read body together from JSON.parse's value and what the scan found: the stand-ins for number literals,
// and the further readings of a body whose objects repeat a key.

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

/** Reads the text of one value inside the body as the body itself is read. */
export type JsonBodyRead = { ok: true; body: JsonBody } | { ok: false; reason: string; kind: 'syntax' | 'depth' };

type ReadPart = (text: string) => JsonBodyRead;

export function assemble(text: string, parsed: unknown, scanner: Scanner, read: ReadPart): JsonBody {
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
  const otherReadings = Array.from({ length: readingCount }, (_, i) => reading(text, value, shown, i + 1, read));
  return { value, otherReadings, repeatedKeys: [...new Set(repeats.map((r) => pointer(r.path)))], literals };
}

/**
 * Reading k of `value`: each repeated key takes its k-th occurrence, read on its own (so its literals keep their
 * stand-ins and its own repeated keys give their k-th reading). Only the containers on the way are copied.
 */
function reading(text: string, value: unknown, repeats: RepeatFound[], k: number, read: ReadPart): unknown {
  // `repeats` are in the order of their last occurrences, so a key inside a replaced value comes after it.
  const copies = new Set<object>();
  let root = value;
  let replacedUntil = -1;
  for (const repeat of repeats) {
    const last = repeat.keyOffsets.at(-1)!;
    // Keys inside a value this reading has replaced are not in the reading.
    if (last < replacedUntil || k >= repeat.keyOffsets.length) continue;
    const span = memberValue(text, repeat.keyOffsets[k - 1]);
    const occurrence = read(text.slice(span[0], span[1])) as { ok: true; body: JsonBody };
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
