import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

// CTRF's published schema (self-tests/fixtures/ctrf/, draft-07, so ajv's default class), every format checked.

const schema = JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'ctrf', 'ctrf.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const validate = ajv.compile(schema);

/** Errors of a ctrf.json against CTRF's published schema; empty when it conforms. */
export function ctrfSchemaErrors(ctrf: unknown): string[] {
  return validate(ctrf) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}
