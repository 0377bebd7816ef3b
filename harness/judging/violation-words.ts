// A violation in words: the one wording every report gives it (the test's message and conformance.json's reason,
// the page, summary.md, JUnit, CTRF, the console, CI annotations, a diff's why). A format only marks the
// pieces: Markdown and HTML escape them and set the request and the place as code.

/** How a format marks each piece of a violation's words; plain text by default. */
export interface Marks {
  /** The request and the place in the answer. */
  code(text: string): string;
  /** What was received. */
  value(text: string): string;
  /** What the document requires, and the status. */
  text(text: string): string;
}

const same = (text: string) => text;
export const PLAIN: Marks = { code: same, value: same, text: same };

/** A request as evidence keeps it, the fields the words need. */
export interface RequestWords {
  method: string;
  path: string;
  status?: number;
}

/** A violation as evidence keeps it, the fields the words need. */
export interface ViolationWords {
  pointer: string;
  received: string;
  required: string;
  request: RequestWords;
}

/** A request and its answer's status: `GET /api/admin/projects → 200`. */
export const requestText = (r: RequestWords, marks = PLAIN): string =>
  `${marks.code(`${r.method} ${r.path}`)} → ${marks.text(String(r.status ?? 'no answer'))}`;

/** Where in the answer, what was received and what the document requires: `at /health: received 101; the document requires …`. */
export const violationText = (v: ViolationWords, marks = PLAIN): string =>
  `at ${marks.code(v.pointer || '(response)')}: received ${marks.value(v.received)}; the document requires ${marks.text(v.required)}`;

/** A violation on one line, its request first. */
export const violationLine = (v: ViolationWords, marks = PLAIN): string => `${requestText(v.request, marks)}: ${violationText(v, marks)}`;
