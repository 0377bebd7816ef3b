import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { loadCatalogue } from './catalogue.ts';
import { ConfigError } from './config-error.ts';

/** A clause a target is known to break, accepted for a reason and, where given, until a date. */
export interface KnownDeviation {
  clause: string;
  reason: string;
  link?: string;
  /** ISO date (YYYY-MM-DD); from that day on the deviation no longer excuses a failure. */
  expires?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkEntry(entry: unknown, index: number, file: string, known: Set<string>): KnownDeviation {
  const where = `${file}, deviation ${index + 1}`;
  if (entry === null || typeof entry !== 'object') throw new ConfigError(`${where}: expected a mapping with clause, reason, link and expires`);
  const { clause, reason, link, expires } = entry as Record<string, unknown>;
  if (typeof clause !== 'string' || !known.has(clause)) throw new ConfigError(`${where}: "${String(clause)}" is not a clause id of contracts/clauses.yaml`);
  if (typeof reason !== 'string' || reason.trim() === '') throw new ConfigError(`${where}: a deviation needs a reason`);
  if (link !== undefined && typeof link !== 'string') throw new ConfigError(`${where}: link must be a string`);
  const expiresText = expires instanceof Date ? expires.toISOString().slice(0, 10) : expires;
  if (expiresText !== undefined && (typeof expiresText !== 'string' || !DATE.test(expiresText))) throw new ConfigError(`${where}: expires must be a date such as 2027-06-30`);
  return { clause, reason, link, expires: expiresText };
}

/** Reads a known-deviations file: `deviations:` a list of { clause, reason, link, expires }. */
export function loadDeviations(file: string): KnownDeviation[] {
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`the deviations file ${file} cannot be read: ${(error as Error).message.split('\n')[0]}`);
  }
  const list = (doc as { deviations?: unknown } | null)?.deviations;
  if (!Array.isArray(list)) throw new ConfigError(`the deviations file ${file} must have a list under "deviations"`);
  const known = new Set(loadCatalogue().map((c) => c.id));
  const entries = list.map((e, i) => checkEntry(e, i, file, known));
  const repeated = entries.find((e, i) => entries.findIndex((o) => o.clause === e.clause) !== i);
  if (repeated) throw new ConfigError(`the deviations file ${file} lists ${repeated.clause} twice`);
  return entries;
}
