import { expect, test } from '@playwright/test';
import { Ajv } from 'ajv';
import { readJsonBody } from '../../harness/json/json-body.ts';
import type { JsonBody } from '../../harness/json/json-readings.ts';

function body(text: string, maxDepth?: number): JsonBody {
  const read = readJsonBody(text, maxDepth);
  if (!read.ok) throw new Error(`expected ${JSON.stringify(text)} to be read, got: ${read.reason}`);
  return read.body;
}

function refusal(text: string, maxDepth?: number): { reason: string; kind: string } {
  const read = readJsonBody(text, maxDepth);
  if (read.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  return { reason: read.reason, kind: read.kind };
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// A refusal is one of a few fixed sentences with a position, so it cannot carry any part of the body.
const WHERE = [
  'where a (value|key|colon) is expected',
  'where a comma or the end of the (object|array) is expected',
  'after the JSON value',
  'in (a number|a literal name|an escape in a string)',
];
const ENDS = ['where a (value|key|colon) is expected', 'inside an? (object|array|string|number|literal name)', 'after the JSON value'];
const WHAT = [`unexpected (character|byte order mark) (${WHERE.join('|')})`, `the text ends (${ENDS.join('|')})`, 'an unescaped control character in a string'];
const REASON = new RegExp(`^(the body is empty|the body is not JSON: (${WHAT.join('|')}) at line \\d+, column \\d+)$`);

const canonical = [
  '{"version":1,"projects":[]}',
  '[1,-2,0,0.5,-0.25,1e+21,1.5e-7,123456789012345,-123456789012345,123456789012345.5]',
  '"caf\\u00e9 \\n \\/"',
  ' \t\r\n{ "a" : [ 1 , { } , [ ] ] }\n',
  '{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}',
  'true',
  'null',
  '""',
  '{"":1,"\\u0000":2}',
  '[9007199254740991,-9007199254740991,1.7976931348623157e+308,5e-324]',
];

for (const text of canonical) {
  test(`a canonical body is its JSON.parse value with nothing to report: ${text.trim()}`, () => {
    const read = body(text);
    expect(read.value).toEqual(JSON.parse(text));
    expect(read.literals).toEqual(new Map());
    expect(read.otherReadings).toEqual([]);
    expect(read.repeatedKeys).toEqual([]);
  });
}

// stand-in: what `value` holds, so that type, minimum and maximum judge the literal's exact value.
const literals = [
  { text: '1e400', standIn: Number.MAX_VALUE, integral: true },
  { text: '1E400', standIn: Number.MAX_VALUE, integral: true },
  { text: '-1e400', standIn: -Number.MAX_VALUE, integral: true },
  { text: '1e-400', standIn: Number.MIN_VALUE, integral: false },
  { text: '-1e-400', standIn: -Number.MIN_VALUE, integral: false },
  { text: '-0', standIn: -0, integral: true },
  { text: '-0.0e5', standIn: -0, integral: true },
  { text: '0e-5', standIn: 0, integral: true },
  { text: '1.0', standIn: 1, integral: true },
  { text: '1E2', standIn: 100, integral: true },
  { text: '1e2', standIn: 100, integral: true },
  { text: '1.5e1', standIn: 15, integral: true },
  { text: '0.10', standIn: 0.1, integral: false },
  { text: '1.25e1', standIn: 12.5, integral: false },
  { text: '100.00000000000000001', standIn: 100.00000000000001, integral: false },
  { text: '-100.00000000000000001', standIn: -100.00000000000001, integral: false },
  { text: '0.99999999999999999999', standIn: 0.9999999999999999, integral: false },
  { text: '9007199254740993', standIn: 9007199254740992, integral: true },
  { text: '9007199254740993.5', standIn: 9007199254740994, integral: false },
  { text: '12345678901234567890', standIn: 12345678901234567000, integral: true },
  { text: '1e21', standIn: 1e21, integral: true },
];

for (const { text, standIn, integral } of literals) {
  test(`the literal ${text} stands as ${standIn} and is recorded as ${integral ? 'whole' : 'not whole'}`, () => {
    const alone = body(text);
    expect(Object.is(alone.value, standIn)).toBe(true);
    expect(alone.literals).toEqual(new Map([['', { text, integral }]]));
    const nested = body(`{"a":[0,${text}]}`);
    expect(Object.is((nested.value as { a: number[] }).a[1], standIn)).toBe(true);
    expect(nested.literals).toEqual(new Map([['/a/1', { text, integral }]]));
  });
}

test('a literal is recorded exactly when JSON.stringify of its number would not give it back, over random literals', () => {
  // A fixed linear congruential sequence, so that a failure names a literal that can be run again.
  let seed = 3;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const digits = (count: number) => Array.from({ length: count }, () => String(next(10))).join('');
  // Mismatches are gathered and asserted once: an expect per literal would cost more than the reading.
  const mismatches: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const whole = next(3) === 0 ? '0' : String(1 + next(9)) + digits(next(17));
    const fraction = next(4) === 0 ? '' : `.${'0'.repeat(next(3) === 0 ? next(9) : 0)}${digits(1 + next(17))}`;
    const exponent = next(6) === 0 ? `e${['', '+', '-'][next(3)]}${digits(1 + next(3))}` : '';
    const text = `${next(2) ? '-' : ''}${whole}${fraction}${exponent}`;
    if (body(text).literals.has('') !== (JSON.stringify(Number(text)) !== text)) mismatches.push(text);
  }
  expect(mismatches).toEqual([]);
});

const ajv = new Ajv();
const judgements = [
  { text: '1e400', schema: { type: 'integer' }, valid: true },
  { text: '1e400', schema: { type: 'number', maximum: 1e308 }, valid: false },
  { text: '-1e400', schema: { type: 'number', minimum: -1e308 }, valid: false },
  { text: '1e-400', schema: { type: 'integer' }, valid: false },
  { text: '1e-400', schema: { type: 'number', exclusiveMinimum: 0 }, valid: true },
  { text: '-1e-400', schema: { type: 'number', exclusiveMaximum: 0 }, valid: true },
  { text: '1.0', schema: { type: 'integer' }, valid: true },
  { text: '100.00000000000000001', schema: { type: 'integer' }, valid: false },
  { text: '100.00000000000000001', schema: { type: 'number', maximum: 100 }, valid: false },
  { text: '99.999999999999999999', schema: { type: 'number', minimum: 100 }, valid: false },
  { text: '99.999999999999999999', schema: { type: 'integer' }, valid: false },
];

for (const { text, schema, valid } of judgements) {
  test(`a schema judges ${text} by its exact value: ${JSON.stringify(schema)} is ${valid ? 'met' : 'broken'}`, () => {
    expect(ajv.validate(schema, body(text).value)).toBe(valid);
  });
}

const repeats = [
  { text: '{"a":1,"b":2,"a":3}', value: { a: 3, b: 2 }, otherReadings: [{ a: 1, b: 2 }], repeatedKeys: ['/a'] },
  { text: '{"a":1,"a":2,"a":3}', value: { a: 3 }, otherReadings: [{ a: 1 }, { a: 2 }], repeatedKeys: ['/a'] },
  {
    text: '{"a":1,"a":2,"a":3,"b":1,"b":2}',
    value: { a: 3, b: 2 },
    otherReadings: [
      { a: 1, b: 1 },
      { a: 2, b: 2 },
    ],
    repeatedKeys: ['/a', '/b'],
  },
  { text: '{"a":1,"b":1,"b":2,"a":2}', value: { a: 2, b: 2 }, otherReadings: [{ a: 1, b: 1 }], repeatedKeys: ['/a', '/b'] },
  {
    text: '[{"id":"x"},{"id":"p","name":"A","name":"B"}]',
    value: [{ id: 'x' }, { id: 'p', name: 'B' }],
    otherReadings: [[{ id: 'x' }, { id: 'p', name: 'A' }]],
    repeatedKeys: ['/1/name'],
  },
  { text: '{"\\u0061":1,"a":2}', value: { a: 2 }, otherReadings: [{ a: 1 }], repeatedKeys: ['/a'] },
  { text: '{"\\u0061b":1,"a\\u0062":2}', value: { ab: 2 }, otherReadings: [{ ab: 1 }], repeatedKeys: ['/ab'] },
  { text: '{"a/b":1,"a\\/b":2}', value: { 'a/b': 2 }, otherReadings: [{ 'a/b': 1 }], repeatedKeys: ['/a~1b'] },
  { text: '{"~1":{"x":1,"x":2}}', value: { '~1': { x: 2 } }, otherReadings: [{ '~1': { x: 1 } }], repeatedKeys: ['/~01/x'] },
  { text: '{"":1,"":2}', value: { '': 2 }, otherReadings: [{ '': 1 }], repeatedKeys: ['/'] },
  { text: '{"b":{"x":1,"x":2},"a":1,"a":2}', value: { b: { x: 2 }, a: 2 }, otherReadings: [{ b: { x: 1 }, a: 1 }], repeatedKeys: ['/b/x', '/a'] },
  {
    text: '{"x":{"c":1,"c":2},"x":{"c":3,"c":4,"c":5}}',
    value: { x: { c: 5 } },
    otherReadings: [{ x: { c: 1 } }, { x: { c: 4 } }],
    repeatedKeys: ['/x', '/x/c'],
  },
  { text: '{"x":{"c":1,"c":2,"c":3},"x":0}', value: { x: 0 }, otherReadings: [{ x: { c: 1 } }, { x: 0 }], repeatedKeys: ['/x', '/x/c'] },
  { text: '{"n":1e400,"n":2}', value: { n: 2 }, otherReadings: [{ n: Number.MAX_VALUE }], repeatedKeys: ['/n'] },
];

for (const { text, ...expected } of repeats) {
  test(`each occurrence of a repeated key is a reading of its own: ${text}`, () => {
    const { value, otherReadings, repeatedKeys } = body(text);
    expect({ value, otherReadings, repeatedKeys }).toEqual(expected);
  });
}

test('a literal only in an earlier occurrence of a key is in that reading, not in the literals of value', () => {
  const read = body('{"n":[1.0],"n":[2.0]}');
  expect(read.literals).toEqual(new Map([['/n/0', { text: '2.0', integral: true }]]));
  expect(read.otherReadings).toEqual([{ n: [1] }]);
});

test('a reading copies only the containers on the way to the repeated key', () => {
  const read = body('{"version":1,"projects":[{"id":"a","owners":[]},{"id":"b","name":"B","name":"C"}]}');
  const value = read.value as { projects: object[] };
  const reading = read.otherReadings[0] as { projects: object[] };
  expect(reading.projects[0]).toBe(value.projects[0]);
  expect(reading.projects[1]).not.toBe(value.projects[1]);
  expect(reading.projects[1]).toEqual({ id: 'b', name: 'B' });
  expect(value.projects[1]).toEqual({ id: 'b', name: 'C' });
});

test('a repeated "__proto__" is read as an own key in value and in the reading', () => {
  const read = body('{"__proto__":1,"__proto__":2}');
  expect(Object.getOwnPropertyDescriptor(read.value, '__proto__')?.value).toBe(2);
  expect(Object.getOwnPropertyDescriptor(read.otherReadings[0], '__proto__')?.value).toBe(1);
  expect(read.repeatedKeys).toEqual(['/__proto__']);
});

test('a repeated key is found in an object of many keys', () => {
  const keys = Array.from({ length: 60 }, (_, i) => `"k${i}":${i}`);
  expect(body(`{${keys.join(',')}}`).repeatedKeys).toEqual([]);
  const read = body(`{${[...keys, '"k5":"again"', '"k59":"again"'].join(',')}}`);
  expect(read.repeatedKeys).toEqual(['/k5', '/k59']);
  expect((read.otherReadings[0] as Record<string, unknown>).k5).toBe(5);
});

test('nesting up to maxDepth is read and one level more is refused', () => {
  expect(body('[[[]]]', 3).value).toEqual([[[]]]);
  expect(refusal('[[[[]]]]', 3)).toEqual({ kind: 'depth', reason: 'the JSON body nests deeper than 3 levels' });
  expect(body('{"a":'.repeat(512) + '1' + '}'.repeat(512)).literals).toEqual(new Map());
  expect(body('['.repeat(512) + ']'.repeat(512)).value).toBeInstanceOf(Array);
  expect(refusal('['.repeat(513) + ']'.repeat(513))).toEqual({ kind: 'depth', reason: 'the JSON body nests deeper than 512 levels' });
});

test('a body nested 100,000 deep is refused without overflowing the stack', () => {
  const depth = 100_000;
  expect(refusal('['.repeat(depth) + ']'.repeat(depth))).toEqual({ kind: 'depth', reason: 'the JSON body nests deeper than 512 levels' });
  expect(refusal('{"a":'.repeat(depth))).toEqual({ kind: 'depth', reason: 'the JSON body nests deeper than 512 levels' });
});

const invalid = [
  { text: '', reason: 'the body is empty' },
  { text: ' \n ', reason: 'the body is not JSON: the text ends where a value is expected at line 2, column 2' },
  { text: '\uFEFF{}', reason: 'the body is not JSON: unexpected byte order mark where a value is expected at line 1, column 1' },
  { text: '\u00A01', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: '\f1', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: '[1,]', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 4' },
  { text: '{"a":1,}', reason: 'the body is not JSON: unexpected character where a key is expected at line 1, column 8' },
  { text: '{a:1}', reason: 'the body is not JSON: unexpected character where a key is expected at line 1, column 2' },
  { text: '{"a" 1}', reason: 'the body is not JSON: unexpected character where a colon is expected at line 1, column 6' },
  { text: '[1 2]', reason: 'the body is not JSON: unexpected character where a comma or the end of the array is expected at line 1, column 4' },
  { text: '{"a":1]', reason: 'the body is not JSON: unexpected character where a comma or the end of the object is expected at line 1, column 7' },
  { text: '[1', reason: 'the body is not JSON: the text ends inside an array at line 1, column 3' },
  { text: '{"a":1', reason: 'the body is not JSON: the text ends inside an object at line 1, column 7' },
  { text: '{"a":', reason: 'the body is not JSON: the text ends where a value is expected at line 1, column 6' },
  { text: '{', reason: 'the body is not JSON: the text ends where a key is expected at line 1, column 2' },
  { text: '1 2', reason: 'the body is not JSON: unexpected character after the JSON value at line 1, column 3' },
  { text: '{}}', reason: 'the body is not JSON: unexpected character after the JSON value at line 1, column 3' },
  { text: '01', reason: 'the body is not JSON: unexpected character after the JSON value at line 1, column 2' },
  { text: '-01', reason: 'the body is not JSON: unexpected character after the JSON value at line 1, column 3' },
  { text: '+1', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: '.5', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: '1.', reason: 'the body is not JSON: the text ends inside a number at line 1, column 3' },
  { text: '1.e5', reason: 'the body is not JSON: unexpected character in a number at line 1, column 3' },
  { text: '1e', reason: 'the body is not JSON: the text ends inside a number at line 1, column 3' },
  { text: '-', reason: 'the body is not JSON: the text ends inside a number at line 1, column 2' },
  { text: '-x', reason: 'the body is not JSON: unexpected character in a number at line 1, column 2' },
  { text: 'NaN', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: 'Infinity', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: 'tru', reason: 'the body is not JSON: the text ends inside a literal name at line 1, column 4' },
  { text: 'nul1', reason: 'the body is not JSON: unexpected character in a literal name at line 1, column 4' },
  { text: 'True', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: "'x'", reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: '/* note */ 1', reason: 'the body is not JSON: unexpected character where a value is expected at line 1, column 1' },
  { text: '"abc', reason: 'the body is not JSON: the text ends inside a string at line 1, column 5' },
  { text: '"a\tb"', reason: 'the body is not JSON: an unescaped control character in a string at line 1, column 3' },
  { text: '"a\\x"', reason: 'the body is not JSON: unexpected character in an escape in a string at line 1, column 4' },
  { text: '"\\u12G4"', reason: 'the body is not JSON: unexpected character in an escape in a string at line 1, column 6' },
  { text: '"\\u12', reason: 'the body is not JSON: the text ends inside a string at line 1, column 6' },
  { text: '{\n  "a": 1,\n  "b": }', reason: 'the body is not JSON: unexpected character where a value is expected at line 3, column 8' },
];

for (const { text, reason } of invalid) {
  test(`a text JSON.parse refuses is refused with its place: ${JSON.stringify(text)}`, () => {
    expect(parses(text)).toBe(false);
    expect(refusal(text)).toEqual({ kind: 'syntax', reason });
  });
}

for (const { text } of invalid.filter((row) => row.text.trim() !== '')) {
  test(`the reason for refusing ${JSON.stringify(text)} after a secret does not quote the body`, () => {
    const secret = 'SECRET-abcdef123';
    const wrappings = [`{"token":"${secret}","value":${text}`, `["${secret}",\n${text}]`, `{"${secret}":${text}}`];
    // "{}}" closes the object it is put in; such a wrapping is JSON and has no reason to check.
    for (const wrapped of wrappings.filter((w) => !parses(w))) {
      const { reason } = refusal(wrapped);
      expect(reason).toMatch(REASON);
      expect(reason).not.toContain(secret);
      expect(reason).not.toContain('abcdef');
    }
  });
}

const surrogates = [
  '"\\ud800"',
  '"\\udc00"',
  '"\\ud800\\u0041"',
  '"\\uD83D\\uDE00"',
  '"\\uDE00\\uD83D"',
  '"\ud800"',
  '"\udc00x"',
  '{"\\ud800":1,"\\ud800":2}',
  '{"\ud800":1,"\\ud800":2}',
  '"\\ud800\\"',
  '"\\ud8"',
  '"\\uD800\\u"',
];

for (const text of surrogates) {
  test(`a surrogate escape is accepted exactly when JSON.parse accepts it: ${JSON.stringify(text)}`, () => {
    const read = readJsonBody(text);
    expect(read.ok).toBe(parses(text));
    if (read.ok) expect(read.body.value).toEqual(JSON.parse(text));
  });
}

test('whatever JSON.parse accepts is read and whatever it refuses is refused, over random texts', () => {
  // A fixed linear congruential sequence, so that a failure names a text that can be run again.
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const pieces = [
    '{',
    '}',
    '[',
    ']',
    ',',
    ':',
    '"a"',
    '"b"',
    '1',
    '-0',
    '1e400',
    '0.5',
    'null',
    'true',
    ' ',
    '\n',
    '"\\u0061"',
    '"',
    '\\',
    'x',
    '.',
    'e',
    '\t',
  ];
  const mismatches: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const text = Array.from({ length: 1 + next(12) }, () => pieces[next(pieces.length)]).join('');
    const read = readJsonBody(text);
    if (read.ok !== parses(text) || (!read.ok && !REASON.test(read.reason))) mismatches.push(text);
  }
  expect(mismatches).toEqual([]);
});

test('a body exactly as JSON.stringify writes it reads as JSON.parse reads it, and the same body spaced out reads alike', () => {
  const value = { n: [1e21, 5e-324, -1.5e-7, 0.1, 1.7976931348623157e308, -1, 0], s: 'é "q" \\ / \u2028 😀', __proto__x: null, deep: [[{ a: [] }]] };
  const canonical = JSON.stringify(value);
  const spaced = JSON.stringify(value, null, 2);
  const [a, b] = [body(canonical), body(spaced)];
  expect([a.value, a.literals, a.repeatedKeys, a.otherReadings]).toEqual([value, new Map(), [], []]);
  expect([b.value, b.literals, b.repeatedKeys, b.otherReadings]).toEqual([a.value, a.literals, a.repeatedKeys, a.otherReadings]);
  // Written back differently, each is found: a repeated key, and a literal JSON.stringify writes otherwise.
  expect(body(canonical.replace('{"n":', '{"n":0,"n":')).repeatedKeys).toEqual(['/n']);
  expect([...body(canonical.replace('0.1,', '0.10,')).literals.keys()]).toEqual(['/n/3']);
});
