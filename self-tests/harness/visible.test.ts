import { expect, test } from '@playwright/test';
import { visible } from '../../harness/files/visible.ts';

// What a target writes is shown, never obeyed: every character a terminal or a reader would take for
// something else is written as an escape, in the notation of JSON strings.

const VISIBLE: [description: string, text: string, line: string, block?: string][] = [
  ['plain text and Unicode stay as they are', 'Équipe 入職 🚀 עברית "quoted" \\u0041', 'Équipe 入職 🚀 עברית "quoted" \\u0041'],
  ['an escape sequence that colours and clears', '\u001b[31mred\u001b[2J', '\\u001b[31mred\\u001b[2J'],
  [
    'an operating system command (a terminal hyperlink)',
    '\u001b]8;;http://evil.invalid\u0007link\u001b]8;;\u0007',
    '\\u001b]8;;http://evil.invalid\\u0007link\\u001b]8;;\\u0007',
  ],
  ['C1 controls, a CSI among them', '\u009b2J\u0085\u0090', '\\u009b2J\\u0085\\u0090'],
  ['bidi overrides, embeddings, isolates and marks', 'a\u202eb\u202ac\u2066d\u2069e\u200ff\u061c', 'a\\u202eb\\u202ac\\u2066d\\u2069e\\u200ff\\u061c'],
  ['invisible characters: zero width, byte order mark, tags, separators', 'a\u200bb\ufeffc\u{e0041}d\u2028e', 'a\\u200bb\\ufeffc\\u{e0041}d\\u2028e'],
  ['DEL, NUL and a lone surrogate half', '\u007f\u0000\ud800x\udfff', '\\u007f\\u0000\\ud800x\\udfff'],
  ['line breaks and tabs on one line; a block keeps them', 'a\nb\r\nc\td', 'a\\nb\\r\\nc\\td', 'a\nb\\r\nc\td'],
];

for (const [description, text, line, block] of VISIBLE) {
  test(`visible: ${description}`, () => {
    expect(visible(text)).toBe(line);
    expect(visible(text, 'block')).toBe(block ?? line);
  });
}
