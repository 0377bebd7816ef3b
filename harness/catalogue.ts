import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
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
}

let cached: Clause[] | undefined;

export function loadCatalogue(): Clause[] {
  return (cached ??= parseYaml(readFileSync(path.join(CONTRACTS_DIR, 'clauses.yaml'), 'utf8')) as Clause[]);
}

export function clauseById(id: string): Clause {
  const clause = loadCatalogue().find((c) => c.id === id);
  if (!clause) throw new Error(`clause ${id} is not in contracts/clauses.yaml`);
  return clause;
}
