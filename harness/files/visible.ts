// Text from a target is shown, never obeyed: a terminal runs escape sequences, bidi overrides reorder
// what a reader sees, and a line break in a one-line field forges a line of its own. Every such character
// is written as a JSON-style escape (\u001b, \u202e, \n), the notation received values already use.

/**
 * C0 and C1 controls, DEL, bidi embeddings, overrides, isolates and marks, line and paragraph separators,
 * zero-width and other invisible format characters, tag characters, lone surrogate halves, and the noncharacters
 * (U+FDD0 to U+FDEF, and the last two code points of every plane): no XML 1.0 document may hold U+FFFE or U+FFFF,
 * nor a lone surrogate, so that whatever a target sends, every XML file the suite writes stays XML.
 */
const HIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufdd0-\ufdef\ufe00-\ufe0f\ufeff\ufff9-\ufffb\ufffe\uffff\uffa0]|[\u{e0000}-\u{e0fff}\u{1fffe}\u{1ffff}\u{2fffe}\u{2ffff}\u{3fffe}\u{3ffff}\u{4fffe}\u{4ffff}\u{5fffe}\u{5ffff}\u{6fffe}\u{6ffff}\u{7fffe}\u{7ffff}\u{8fffe}\u{8ffff}\u{9fffe}\u{9ffff}\u{afffe}\u{affff}\u{bfffe}\u{bffff}\u{cfffe}\u{cffff}\u{dfffe}\u{dffff}\u{efffe}\u{effff}\u{ffffe}\u{fffff}\u{10fffe}\u{10ffff}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOf(char: string): string {
  if (char.length === 2) return `\\u{${char.codePointAt(0)!.toString(16)}}`;
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** How a text is laid out: on one line (a field, a reason), or as a block whose line breaks and tabs stay (a body excerpt). */
export type Layout = 'line' | 'block';

/** The text with every control, escape, bidi or invisible character written as an escape; a block keeps its line breaks and tabs. */
export function visible(text: string, layout: Layout = 'line'): string {
  return text.replace(HIDDEN, (char) => (layout === 'block' && (char === '\n' || char === '\t') ? char : escapeOf(char)));
}

/**
 * A line for a CI log: GitHub's runner takes `##[` anywhere in a line for a legacy workflow command
 * (`##[error]`, `##[stop-commands]`), so the `[` of every `##[` is written as its escape. Applied where lines are
 * printed, to text already redacted: everything a target or a file supplies that reaches a log is escaped this
 * way, once, and the suite's own lines never hold `##[`.
 */
export const forTheLog = (text: string): string => text.replace(/##\[/g, '##\\u005b');
