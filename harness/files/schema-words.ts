import type { ErrorObject } from 'ajv';

// What a schema wants, in a person's words where ajv's would quote a regular expression or shout ("must NOT have
// fewer than 1 characters"): the patterns of the files people write (deviations, fleet and target files), and the
// bounds of a length, a list or a map.

/** The patterns of the suite's schemas, each as what a value must be. */
const PATTERNS: Record<string, string> = {
  '\\S': 'text, not blank',
  '^\\d{4}-\\d{2}-\\d{2}$': 'a date, YYYY-MM-DD, such as 2027-01-31',
  '^[A-Za-z_][A-Za-z0-9_]{0,127}$': "an environment variable's name: letters, digits and _, not starting with a digit",
  '^[^\\u0000-\\u001f\\u007f]*$': 'text without control characters',
  '^[A-Za-z_][A-Za-z0-9_.-]{0,62}$': 'a name of letters, digits, _, . and -, starting with a letter or _, of at most 63 characters',
  '^[0-9]+/[0-9]+$': 'i/n, such as 2/3',
  '^[0-9a-f]{64}$': 'a SHA-256 digest, 64 hexadecimal digits',
};

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
    const wanted = PATTERNS[String(error.params.pattern)];
    if (wanted === undefined) return undefined;
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
