import { loadProfiles } from '../contracts/profiles.ts';
import { closest } from '../files/closest.ts';
import { ConfigError } from '../files/config-error.ts';

// What a run claims (CONFORMANCE_CLAIM): the profiles of contracts/profiles.yaml it exercises, each known.

/** A profile's name as the catalogue writes them: an entry unlike one is not quoted, as it may be a token pasted in the wrong place. */
const PROFILE_NAME = /^[a-z][a-z0-9-]{0,40}$/;

/** The profiles a run claims (CONFORMANCE_CLAIM), each known, in the catalogue's order; undefined claims every profile. */
export function parseClaim(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const known = loadProfiles().map((p) => p.name);
  const names = raw.split(',').map((n) => n.trim());
  if (names.some((n) => n === ''))
    throw new ConfigError(`CONFORMANCE_CLAIM has an empty entry: name the profiles it claims, comma-separated (${known.join(', ')})`);
  for (const name of names.filter((n) => !known.includes(n))) {
    const meant = PROFILE_NAME.test(name) ? closest(name, known) : undefined;
    const what = PROFILE_NAME.test(name) ? `"${name}"` : 'an entry (not shown, as it may be a secret)';
    throw new ConfigError(
      `CONFORMANCE_CLAIM names ${what}, which is no profile${meant ? `; did you mean "${meant}"?` : ''} (the profiles: ${known.join(', ')})`,
    );
  }
  return known.filter((k) => names.includes(k));
}
