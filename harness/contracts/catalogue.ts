import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { check, schemaFile } from '../files/checked.ts';
import { CONTRACTS_DIR } from './contracts.ts';

export type Level = 'MUST' | 'INFO';

/** One checkable statement of the document (contracts/clauses.yaml). */
export interface Clause {
  id: string;
  section: string;
  level: Level;
  title: string;
  /** What input the clause needs beyond the admin token. */
  needs?: string;
  /** The profile of a MUST clause (contracts/profiles.yaml). */
  profile?: string;
}

let cached: Clause[] | undefined;

/** contracts/clauses.yaml, checked against its schema; a broken catalogue stops the suite at once. */
export function loadCatalogue(): Clause[] {
  if (cached) return cached;
  const read = check<Clause[]>(schemaFile('catalogue.schema.json'), parseYaml(readFileSync(path.join(CONTRACTS_DIR, 'clauses.yaml'), 'utf8')));
  if (!read.ok) throw new Error(`contracts/clauses.yaml does not match harness/files/schemas/catalogue.schema.json: ${read.errors.join('; ')}`);
  return (cached = read.value);
}
