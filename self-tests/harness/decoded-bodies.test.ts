import { expect, test } from '@playwright/test';
import { DecodedBodies } from '../../harness/transport/decoded-bodies.ts';

// A body like an earlier one shares its text; any other body, however alike in length, is its own.

test('bodies byte for byte alike read alike, and bodies of one length that differ each read as they are', () => {
  const bodies = new DecodedBodies();
  expect(bodies.decode(Buffer.from('{"a":1}'))).toEqual({ text: '{"a":1}' });
  expect(bodies.decode(Buffer.from('{"b":2}'))).toEqual({ text: '{"b":2}' });
  expect(bodies.decode(Buffer.from('{"a":1}'))).toEqual({ text: '{"a":1}' });
  expect(bodies.decode(Buffer.from('{"a":2}'))).toEqual({ text: '{"a":2}' });
  expect(bodies.decode(Buffer.from([0x22, 0xc3, 0x28, 0x22]))).toEqual({ error: 'the body is not valid UTF-8' });
  expect(bodies.decode(Buffer.from([0x22, 0xc3, 0xa9, 0x22]))).toEqual({ text: '"é"' });
});

test('past what it keeps of earlier bodies, a body like one let go is decoded again, as it is', () => {
  const bodies = new DecodedBodies();
  const large = (fill: string) => Buffer.alloc(100 * 2 ** 20, fill);
  for (const fill of ['a', 'b', 'c', 'd']) expect(bodies.decode(large(fill)).text?.slice(0, 3)).toBe(fill.repeat(3));
  expect(bodies.decode(large('a')).text?.slice(-3)).toBe('aaa');
  expect(bodies.decode(large('d')).text?.slice(-3)).toBe('ddd');
});
