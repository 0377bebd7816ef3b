import type { SchemaName } from './validator.ts';
import { validators } from './validator.ts';

export interface FieldUse {
  // JSON pointer with array positions folded to "*", e.g. "/projects/*/owners/*/avatar".
  field: string;
  /** How many times it appeared across the bodies read. */
  count: number;
}

export interface FieldObservations {
  unknown: FieldUse[];
  deprecated: FieldUse[];
}

const fold = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');

function tally(map: Map<string, number>, field: string): void {
  map.set(field, (map.get(field) ?? 0) + 1);
}

const sorted = (map: Map<string, number>): FieldUse[] => [...map].sort(([a], [b]) => a.localeCompare(b)).map(([field, count]) => ({ field, count }));

/** Fields beyond the document, and deprecated ones, in the bodies read: reported, never judged. */
export function observeFields(schema: SchemaName, bodies: unknown[]): FieldObservations {
  const unknown = new Map<string, number>();
  const deprecated = new Map<string, number>();
  for (const body of bodies) {
    for (const error of validators().observe(schema, body)) {
      if (error.keyword === 'additionalProperties') tally(unknown, fold(`${error.instancePath}/${error.params.additionalProperty}`));
      else if (error.keyword === 'false schema') tally(deprecated, fold(error.instancePath));
    }
  }
  return { unknown: sorted(unknown), deprecated: sorted(deprecated) };
}
