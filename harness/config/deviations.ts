import { loadCatalogue } from '../contracts/catalogue.ts';
import { check, schemaFile } from '../files/checked.ts';
import { ConfigError } from '../files/config-error.ts';
import { readYamlFile } from '../files/yaml-file.ts';

/** A clause a target is known to break, accepted for a reason and, where given, until a date. */
export interface KnownDeviation {
  clause: string;
  reason: string;
  link?: string;
  /** ISO date (YYYY-MM-DD); from that day on the deviation no longer excuses a failure. */
  expires?: string;
}

/** Whether a YYYY-MM-DD text names a day of the calendar (2027-02-30 does not). */
function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Reads a known-deviations file: `deviations:` a list of { clause, reason, link, expires }, checked against its schema. */
export function loadDeviations(file: string): KnownDeviation[] {
  const read = check<{ deviations: KnownDeviation[] }>(schemaFile('deviations.schema.json'), readYamlFile(file, 'the deviations file'));
  if (!read.ok) throw new ConfigError(`the deviations file ${file}: ${read.errors.join('; ')}`);
  const entries = read.value.deviations;
  const known = new Set(loadCatalogue().map((c) => c.id));
  entries.forEach((e, i) => {
    const where = `${file}, deviation ${i + 1}`;
    if (!known.has(e.clause)) throw new ConfigError(`${where}: "${e.clause}" is not a clause id of contracts/clauses.yaml`);
    if (e.expires !== undefined && !isCalendarDate(e.expires)) throw new ConfigError(`${where}: expires ${e.expires} is not a day of the calendar`);
  });
  const repeated = entries.find((e, i) => entries.findIndex((o) => o.clause === e.clause) !== i);
  if (repeated) throw new ConfigError(`the deviations file ${file} lists ${repeated.clause} twice`);
  return entries;
}
