import { type RowChange, rowChangeText } from '../harness/document/document-changes.ts';
import type { ClauseResult } from './conformance-result.ts';

// Whether a new text of the document accounts for a clause's change between two runs: some row the text
// changed touches the clause, and every violation of the failure that changed lies at a field of those rows.
// A pure function of the rows and the failure. A violation elsewhere, or one the report did not keep, is not
// the document's: the change stays the target's, with the rows named beside it, so that no regression hides
// behind an unrelated row.

/** The rows a clause rests on that the new text changed, and why they do not account for its change when they do not. */
export interface DocumentAccount {
  rows: RowChange[];
  unaccounted?: string;
}

const WORD = /[A-Za-z0-9_$]/;

/** A violation lies at a field when its pointer passes through it, or what it requires names it ("the field "featureCount" to be present"). */
function liesAt(violation: { pointer: string; required: string }, field: string): boolean {
  const segments = violation.pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (segments.includes(field)) return true;
  for (let at = violation.required.indexOf(field); at >= 0; at = violation.required.indexOf(field, at + 1)) {
    const [before, after] = [violation.required[at - 1] ?? ' ', violation.required[at + field.length] ?? ' '];
    if (!WORD.test(before) && !WORD.test(after)) return true;
  }
  return false;
}

/** The account of a clause's change by the rows the new text changed; undefined when no changed row touches the clause. `failure`: the side that failed. */
export function documentAccount(id: string, failure: ClauseResult | undefined, rows: RowChange[]): DocumentAccount | undefined {
  const touching = rows.filter((r) => r.clauses.includes(id));
  if (touching.length === 0) return undefined;
  const violations = failure?.evidence?.violations ?? [];
  const cut = failure?.evidence?.violationsCut ?? 0;
  if (violations.length === 0) return { rows: touching, unaccounted: 'its failure names no violation to hold to them' };
  if (cut > 0) return { rows: touching, unaccounted: `${cut} of its violations were not kept in the report` };
  const elsewhere = violations.find((v) => !touching.some((r) => liesAt(v, r.field)));
  if (elsewhere) return { rows: touching, unaccounted: `its violation at ${elsewhere.pointer || '(the body)'} lies at none of their fields` };
  return { rows: touching };
}

/** The rows in a few words: "2.5 Project object, featureCount: required no → yes". */
export const rowsText = (rows: RowChange[]) => rows.map(rowChangeText).join('; ');
