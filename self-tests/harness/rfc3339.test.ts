import { expect, test } from '@playwright/test';
import { isRfc3339DateTime } from '../../harness/contracts/rfc3339.ts';

const valid = [
  '2024-05-01T12:00:00Z',
  '2024-05-01T12:00:00.123456+02:00',
  '2024-05-01t12:00:00z',
  '2024-02-29T00:00:00-00:00',
  '1998-12-31T23:59:60Z',
  '1998-12-31T15:59:60.123-08:00',
  '2000-02-29T23:59:59+23:59',
];
const invalid = [
  '2024-05-01T12:00:00',
  '2024-05-01 12:00:00Z',
  '2024-05-01T12:00:00+0200',
  '2024-05-01T12:00:00+02',
  '2024-02-30T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2024-05-01T24:00:00Z',
  '2024-05-01T12:60:00Z',
  '2024-13-01T00:00:00Z',
  '1998-12-31T23:58:60Z',
  '1998-12-31T22:59:60Z',
  '2024-05-01',
  '2024-05-01T12:00:00.Z',
  '2024-05-01T12:00:00+24:00',
  ' 2024-05-01T12:00:00Z',
  '२०२४-05-01T12:00:00Z',
];

for (const value of valid) test(`accepts ${value}`, () => expect(isRfc3339DateTime(value)).toBe(true));
for (const value of invalid) test(`rejects ${JSON.stringify(value)}`, () => expect(isRfc3339DateTime(value)).toBe(false));
