// How deep a JSON text nests, found by one scan of its character codes before it is parsed: JSON.parse itself
// takes any depth, but whatever walks the value afterwards (a schema, a diff, a renderer) recurses, and a file
// someone hands the suite decides how deep that is.

import { DEFAULT_MAX_DEPTH } from './json-body.ts';

/**
 * The deepest a file of the suite's nests: a report quotes a target's value (an observation) a few levels below
 * its top, and a body is read to DEFAULT_MAX_DEPTH levels at most. Twice that leaves room, and no walk over it runs
 * out of stack.
 */
export const FILE_DEPTH = 2 * DEFAULT_MAX_DEPTH;

const [QUOTE, BACKSLASH, OPEN_ARRAY, OPEN_OBJECT, CLOSE_ARRAY, CLOSE_OBJECT] = [0x22, 0x5c, 0x5b, 0x7b, 0x5d, 0x7d];

/** Whether the text's arrays and objects nest deeper than `max` levels; strings are skipped, whatever they hold. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: a backslash escapes the character after it.
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}
