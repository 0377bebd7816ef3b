import type { ErrorObject } from 'ajv';

// What a schema wants, in a person's words where ajv's would quote a regular expression or shout ("must NOT have
// fewer than 1 characters"): a pattern by the words the schema gives beside it (`says`), and the bounds of a length,
// a list or a map.

/** The keyword beside a pattern that says in words what a value must be (checked.ts registers it). */
export const SAYS_KEYWORD = 'says';

/** The bounds of a length, a list or a map: the words of each bound, and what is counted. */
const COUNTED: Record<string, [bound: string, unit: string]> = {
  maxLength: ['at most', 'character'],
  minLength: ['at least', 'character'],
  maxItems: ['at most', 'item'],
  minItems: ['at least', 'item'],
  maxProperties: ['at most', 'key'],
  minProperties: ['at least', 'key'],
};

/** The error in words after `at`, when a person's words are known for it; undefined otherwise. */
export function schemaWords(error: ErrorObject): string | undefined {
  if (error.keyword === 'pattern') {
    const wanted = (error.parentSchema as Record<string, unknown> | undefined)?.[SAYS_KEYWORD];
    if (typeof wanted !== 'string') return undefined;
    // A key's name (propertyNames) is not quoted: a key may be a secret written where a key goes.
    return error.propertyName === undefined ? `must be ${wanted}` : `has a key that is not ${wanted}`;
  }
  const counted = COUNTED[error.keyword];
  if (counted === undefined) return undefined;
  const limit = Number(error.params.limit);
  if (error.keyword === 'minLength' && limit === 1) return 'must not be empty';
  const [bound, unit] = counted;
  return `must have ${bound} ${limit} ${unit}${limit === 1 ? '' : 's'}`;
}
