import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { validators, type SchemaName } from '../../harness/contracts/validator.ts';

// Valid and invalid example documents for every object of section 2, as data (cases/*.json).

interface CaseFile {
  schema: SchemaName;
  section: string;
  tests: { description: string; data: unknown; valid: boolean }[];
}

const dir = path.join(__dirname, 'cases');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

test('every object of section 2 has example documents, valid and invalid', () => {
  const schemas = files.map((f) => (JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CaseFile).schema).sort();
  expect(schemas).toEqual(['error', 'owner', 'project', 'projects', 'public-signup-token', 'role', 'user']);
});

for (const file of files) {
  const cases = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CaseFile;
  test.describe(`${cases.schema} (section ${cases.section})`, () => {
    for (const example of cases.tests) {
      test(`${example.valid ? 'accepts' : 'rejects'} ${example.description}`, () => {
        const errors = validators().validate(cases.schema, example.data);
        expect(errors.length === 0, JSON.stringify(errors, null, 1)).toBe(example.valid);
      });
    }
  });
}
