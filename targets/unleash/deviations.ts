import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';

/** Unleash's known deviations, each naming the versions it applies to. */
export const DEVIATIONS_FILE = path.join(__dirname, 'deviations.yaml');

interface VersionedDeviation {
  clause: string;
  versions: string[];
  [field: string]: unknown;
}

/**
 * The suite's deviations file for one version: the entries that name it, without `versions`, which the
 * suite's format does not have. Each run writes it beside its target file.
 */
export function deviationsOf(version: string): string {
  const { deviations } = parse(readFileSync(DEVIATIONS_FILE, 'utf8')) as { deviations: VersionedDeviation[] };
  const entries = deviations.filter((d) => d.versions.map(String).includes(version)).map(({ versions: _versions, ...entry }) => entry);
  return `# Known deviations of unleash-server ${version}, from ${DEVIATIONS_FILE}\n${stringify({ deviations: entries }, { lineWidth: 0 })}`;
}
