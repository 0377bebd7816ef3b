import path from 'node:path';
import { loadCatalogue } from '../contracts/catalogue.ts';
import { check, schemaFile } from '../files/checked.ts';
import { ConfigError } from '../files/config-error.ts';
import { yamlContent } from '../files/yaml-file.ts';
import { namedFile, type NamedFiles } from './named-files.ts';
import type { Source } from './sources.ts';
import { parseRange, satisfies } from './version-range.ts';

/** A clause a target is known to break, accepted for a reason and, where given, until a date. */
export interface KnownDeviation {
  clause: string;
  reason: string;
  link?: string;
  /** ISO date (YYYY-MM-DD); from that day on the deviation no longer excuses a failure. */
  expires?: string;
  /** The product versions it applies to, a semantic-version range (version-range.ts); absent, every version. */
  versions?: string;
  /** `flaky`: a quarantine, which excuses a clause that fails or is flaky (quarantine.ts); it must expire. */
  kind?: 'flaky';
  /** ISO date (YYYY-MM-DD): the day the deviation was accepted, for the quarantine's oldest debt. */
  since?: string;
}

/** Whether a YYYY-MM-DD text names a day of the calendar (2027-02-30 does not). */
function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The known-deviations file the settings name (CONFORMANCE_DEVIATIONS), for settings.ts to read once. */
export const deviationsFile = (source: Source, cwd: string): string | undefined =>
  source.CONFORMANCE_DEVIATIONS ? path.resolve(cwd, source.CONFORMANCE_DEVIATIONS) : undefined;

/** The known deviations the settings name, none when they name no file. */
export function deviationsOf(source: Source, cwd: string, files: NamedFiles): KnownDeviation[] {
  const file = deviationsFile(source, cwd);
  return file === undefined ? [] : parseDeviations(yamlContent(namedFile(files, file), file, 'the deviations file'), file);
}

/** A known-deviations file's content: `deviations:` a list of { clause, reason, link, expires, versions }, checked against its schema. */
function parseDeviations(content: unknown, file: string): KnownDeviation[] {
  // A deviations file holds no secret: a key it does not know is quoted, so that it can be found.
  const read = check<{ deviations: KnownDeviation[] }>(schemaFile('deviations.schema.json'), content, { keysNamed: true });
  if (!read.ok) throw new ConfigError(`the deviations file ${file}: ${read.errors.join('; ')}`);
  const entries = read.value.deviations;
  const known = new Set(loadCatalogue().map((c) => c.id));
  entries.forEach((e, i) => {
    const where = `${file}, deviation ${i + 1}`;
    if (!known.has(e.clause)) throw new ConfigError(`${where}: "${e.clause}" is not a clause id of contracts/clauses.yaml`);
    if (e.expires !== undefined && !isCalendarDate(e.expires)) throw new ConfigError(`${where}: expires ${e.expires} is not a day of the calendar`);
    if (e.versions !== undefined) rangeOf(e.versions, where);
    if (e.since !== undefined && !isCalendarDate(e.since)) throw new ConfigError(`${where}: since ${e.since} is not a day of the calendar`);
  });
  // A clause may be listed once for each range of versions, never twice for one version.
  const repeated = entries.find((e, i) =>
    entries.some((o, j) => j < i && o.clause === e.clause && (o.versions === undefined || e.versions === undefined || o.versions === e.versions)),
  );
  if (repeated) throw new ConfigError(`the deviations file ${file} lists ${repeated.clause} twice`);
  return entries;
}

function rangeOf(versions: string, where: string) {
  try {
    return parseRange(versions);
  } catch (error) {
    throw new ConfigError(`${where}: versions "${versions}" is not a range of versions: ${(error as Error).message}`);
  }
}

/** What the known deviations of a target come to once its product version is known, or is not. */
export interface ApplicableDeviations {
  /** The deviations that apply: those naming no versions, and those whose range holds the version. */
  applied: KnownDeviation[];
  /** Those that name versions the target's is not in; or, its version unknown, every one naming versions. */
  setAside: KnownDeviation[];
}

/**
 * The deviations that apply to `version`. A deviation that names versions applies only when the version is
 * known and in its range: a version not known excuses nothing (no pass rests on a guess), and two entries for
 * one clause, for two ranges, apply to one version at most, the first that holds it.
 */
export function applicableDeviations(deviations: KnownDeviation[], version: string | undefined): ApplicableDeviations {
  const applied: KnownDeviation[] = [];
  const setAside: KnownDeviation[] = [];
  for (const d of deviations) {
    const holds = d.versions === undefined || (version !== undefined && satisfies(version, parseRange(d.versions)));
    if (holds && !applied.some((a) => a.clause === d.clause)) applied.push(d);
    else setAside.push(d);
  }
  return { applied, setAside };
}
