import { assemble, type JsonBodyRead } from './json-readings.ts';
import { Scanner, type Fault } from './json-scanner.ts';

// Reads a response body once and keeps what JSON.parse followed by serialisation would change: number
// literals a double cannot hold or prints differently (RFC 8259 section 6 leaves their precision to the
// reader), repeated keys (section 4: names SHOULD be unique, and readers differ on which one wins), and
// where a text stops being JSON, told without quoting it (bodies may hold secrets).
// JSON.parse gives the value and alone decides what is JSON; one scan by character codes finds the rest.
// The scan is in json-scanner.ts, what a changed literal means in json-literals.ts, and how the value and the
// readings of repeated keys are put together in json-readings.ts.

/** How deep a body is read; a deeper one is refused as JSON nesting too deep. */
export const DEFAULT_MAX_DEPTH = 512;

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
  return { ok: true, body: assemble(text, value, scanner, (part) => readJsonBody(part, maxDepth)) };
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
