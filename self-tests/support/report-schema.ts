import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { PROJECT_ROOT } from './run-suite.ts';

const schema = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'reporters', 'conformance-report.schema.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const validate = ajv.compile(schema);

/** Errors of a conformance.json against its own checked-in schema; empty when it conforms. */
export function reportSchemaErrors(report: unknown): string[] {
  return validate(report) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** Every status a clause may have in conformance.json, as its schema lists them (so a new one shows here). */
export const CLAUSE_STATUSES: readonly string[] = statusesOf(schema.$defs?.clause?.properties?.status?.enum);

function statusesOf(listed: unknown): string[] {
  if (!Array.isArray(listed) || !listed.every((s) => typeof s === 'string'))
    throw new Error('conformance-report.schema.json: $defs.clause.properties.status.enum is not a list of names');
  return listed;
}
