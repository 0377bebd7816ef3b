import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { check, schemaFile } from './checked.ts';
import { cacheRoot, store } from './compiled-schemas.ts';
import { CONTRACTS_DIR } from './contracts.ts';

const YAML_VERSION: string = require('yaml/package.json').version;

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

/**
 * The catalogue as read from this exact text before, kept as JSON beside the compiled schemas: a run's start
 * then loads no YAML parser. What is kept is checked again like the YAML it came from.
 */
function keptFile(text: string): string {
  const digest = createHash('sha256').update(`${YAML_VERSION}\n${text}`).digest('hex').slice(0, 32);
  return path.join(cacheRoot(), 'catalogue', `${digest}.json`);
}

function readKept(file: string): unknown {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
  } catch {
    return undefined; // cut short or damaged: read from the YAML again, and kept anew
  }
}

/** contracts/clauses.yaml, checked against its schema; a broken catalogue stops the suite at once. */
export function loadCatalogue(): Clause[] {
  if (cached) return cached;
  const text = readFileSync(path.join(CONTRACTS_DIR, 'clauses.yaml'), 'utf8');
  const file = keptFile(text);
  const kept = check<Clause[]>(schemaFile('catalogue.schema.json'), readKept(file));
  if (kept.ok) return (cached = kept.value);
  const parseYaml: (text: string) => unknown = require('yaml').parse;
  const read = check<Clause[]>(schemaFile('catalogue.schema.json'), parseYaml(text));
  if (!read.ok) throw new Error(`contracts/clauses.yaml does not match harness/schemas/catalogue.schema.json: ${read.errors.join('; ')}`);
  store(file, JSON.stringify(read.value));
  return (cached = read.value);
}

export function clauseById(id: string): Clause {
  const clause = loadCatalogue().find((c) => c.id === id);
  if (!clause) throw new Error(`clause ${id} is not in contracts/clauses.yaml`);
  return clause;
}
