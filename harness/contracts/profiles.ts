import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { check, schemaFile } from '../files/checked.ts';
import { loadCatalogue } from './catalogue.ts';
import { CONTRACTS_DIR } from './contracts.ts';

/** A group of MUST clauses that a run exercises with the same input (contracts/profiles.yaml): what a claim is made of. */
export interface Profile {
  name: string;
  title: string;
  /** What a run needs to exercise it, in the words of the settings that supply it. */
  needs: string;
  /** Its MUST clauses, in the catalogue's order. */
  clauses: string[];
}

let cached: Profile[] | undefined;

/** contracts/profiles.yaml, each profile with the MUST clauses that name it; every MUST clause is in exactly one. */
export function loadProfiles(): Profile[] {
  if (cached) return cached;
  const read = check<Omit<Profile, 'clauses'>[]>(
    schemaFile('profiles.schema.json'),
    parseYaml(readFileSync(path.join(CONTRACTS_DIR, 'profiles.yaml'), 'utf8')),
  );
  if (!read.ok) throw new Error(`contracts/profiles.yaml does not match harness/files/schemas/profiles.schema.json: ${read.errors.join('; ')}`);
  const catalogue = loadCatalogue();
  const profiles = read.value.map((p) => ({ ...p, clauses: catalogue.filter((c) => c.profile === p.name).map((c) => c.id) }));
  const unknown = catalogue.find((c) => c.profile !== undefined && !profiles.some((p) => p.name === c.profile));
  if (unknown) throw new Error(`contracts/clauses.yaml: ${unknown.id} names the profile "${unknown.profile}", which contracts/profiles.yaml does not have`);
  const empty = profiles.find((p) => p.clauses.length === 0);
  if (empty) throw new Error(`contracts/profiles.yaml: no clause names the profile "${empty.name}"`);
  return (cached = profiles);
}
