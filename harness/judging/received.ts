import { own } from '../contracts/fields.ts';
import type { NumberLiteral } from '../json/json-literals.ts';

/**
 * How much of a received value is written out before redaction. Evidence cuts it much shorter, after the
 * secrets are replaced; this bound only keeps a huge value (a whole list of the wrong type) from being
 * copied at all.
 */
export const RECEIVED_BOUND = 64 * 1024;

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** JSON text of a value, as the target wrote its numbers, stopping soon after `bound` characters. */
function write(value: unknown, at: string, literals: ReadonlyMap<string, NumberLiteral>, out: string[], budget: { left: number }): void {
  if (budget.left <= 0) return;
  let text: string;
  if (typeof value === 'number') text = literals.get(at)?.text ?? JSON.stringify(value);
  else if (value === null || typeof value !== 'object') text = JSON.stringify(value);
  else {
    const isArray = Array.isArray(value);
    out.push(isArray ? '[' : '{');
    budget.left -= 1;
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (budget.left <= 0) return;
      const head = `${first ? '' : ','}${isArray ? '' : `${JSON.stringify(key)}:`}`;
      out.push(head);
      budget.left -= head.length;
      write(item, `${at}/${escapePointer(key)}`, literals, out, budget);
      first = false;
    }
    out.push(isArray ? ']' : '}');
    budget.left -= 1;
    return;
  }
  out.push(text);
  budget.left -= text.length;
}

/** What was received at a place of a body, worded for evidence: JSON text, numbers as sent, or "absent". */
export function describeReceived(value: unknown, at = '', literals: ReadonlyMap<string, NumberLiteral> = new Map()): string {
  if (value === undefined) return 'nothing (the field is absent)';
  const out: string[] = [];
  write(value, at, literals, out, { left: RECEIVED_BOUND });
  return out.join('');
}

/** The value at a JSON pointer, or undefined. */
export function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    // Own keys only: a body's "constructor" or "__proto__" is a field like any other, and one it lacks is absent.
    node = own(node, key);
  }
  return node;
}

export { escapePointer };
