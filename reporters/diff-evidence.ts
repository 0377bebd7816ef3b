import { isDeepStrictEqual } from 'node:util';
import { isNode } from '../harness/contracts/validator.ts';
import { escapePointer } from '../harness/judging/received.ts';
import type { ClauseResult } from './conformance-result.ts';

// What a clause's evidence consists of, for telling "the same" from "another" between two runs: its
// violations, for a clause that fails (excused or not), and its observations, for one that is observed.
// Pure functions.

export type Violation = NonNullable<ClauseResult['evidence']>['violations'][number];

// Every run makes its fixtures and sends its requests at its own time: the expiry of a token made for it, and
// the moment of a request that a violation quotes, differ between any two runs of one server unchanged.
const DATE_TIME = /\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})?/g;
/** A text with its dates and times as `<date-time>`: two runs' words compared, or two targets', without them. */
export const timeless = (text: string) => text.replace(DATE_TIME, '<date-time>');

/** A violation without what differs between any two runs (its duration, the host in its curl line, dates and times). */
function violationKey(v: Violation): string {
  return JSON.stringify([v.request.method, v.request.path, v.request.status, v.pointer, timeless(v.required), timeless(v.received)]);
}

/** What a failure consists of: its violations as violationKey has them, in no order (the order a check found them in is none of the target's). */
export function failureOf(clause: ClauseResult): string[] {
  return (clause.evidence?.violations ?? []).map(violationKey).sort();
}

/** The first violation of the later run that the earlier run did not have, or else the first it no longer has. */
export function changedViolation(before: ClauseResult, after: ClauseResult): { violation: Violation; gone: boolean } | undefined {
  const [was, is] = [before.evidence?.violations ?? [], after.evidence?.violations ?? []];
  const [wasKeys, isKeys] = [new Set(was.map(violationKey)), new Set(is.map(violationKey))];
  const added = is.find((v) => !wasKeys.has(violationKey(v)));
  if (added !== undefined) return { violation: added, gone: false };
  const gone = was.find((v) => !isKeys.has(violationKey(v)));
  return gone === undefined ? undefined : { violation: gone, gone: true };
}

/** A value of an observation in a line: as JSON, at most this many characters. */
const VALUE_CHARS = 200;
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= VALUE_CHARS ? text : `${text.slice(0, VALUE_CHARS)}…`;
}

/** How many times each item of a list occurs, by its JSON. */
function counted(items: unknown[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(shown(item), (counts.get(shown(item)) ?? 0) + 1);
  return counts;
}

/** A list's items gained and lost, each once for every time it was; a list of the same items in another order, in one line. */
function listChanges(before: unknown[], after: unknown[], at: string): string[] {
  const [was, is] = [counted(before), counted(after)];
  const more = (a: Map<string, number>, b: Map<string, number>) => [...a].flatMap(([item, n]) => Array<string>(Math.max(0, n - (b.get(item) ?? 0))).fill(item));
  const lines = [...more(is, was).map((item) => `${at}: added ${item}`), ...more(was, is).map((item) => `${at}: removed ${item}`)];
  return lines.length > 0 ? lines : [`${at}: the same items in another order`];
}

/**
 * Where two observations of a clause differ, a line for each: a value that changed (at its JSON pointer), an
 * item a list gained or lost. Empty when they are the same.
 */
export function observationChanges(before: unknown, after: unknown, at = ''): string[] {
  if (isDeepStrictEqual(before, after)) return [];
  const where = at === '' ? '/' : at;
  if (Array.isArray(before) && Array.isArray(after)) return listChanges(before, after, where);
  if (isNode(before) && isNode(after))
    return [...new Set([...Object.keys(before), ...Object.keys(after)])].flatMap((key) =>
      observationChanges(before[key], after[key], `${at}/${escapePointer(key)}`),
    );
  return [`${where}: ${shown(before)} then ${shown(after)}`];
}
