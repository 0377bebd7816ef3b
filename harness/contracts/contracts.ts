import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';

export const CONTRACTS_DIR = path.join(__dirname, '..', '..', 'contracts');

export type JsonSchema = { $id: string; [keyword: string]: unknown };

/** The JSON Schemas of section 2, one per object, keyed by file name. */
export function loadSchemas(): Map<string, JsonSchema> {
  const files = readdirSync(CONTRACTS_DIR).filter((f) => f.endsWith('.schema.json') && !f.startsWith('conformance-report'));
  return new Map(files.map((f) => [f, JSON.parse(readFileSync(path.join(CONTRACTS_DIR, f), 'utf8')) as JsonSchema]));
}

/** The files of contracts/ itself (the catalogue, the profiles, the schemas), by name, in order. */
const contractFileNames = () =>
  readdirSync(CONTRACTS_DIR)
    .filter((f) => statSync(path.join(CONTRACTS_DIR, f)).isFile())
    .sort();

/**
 * A short hash of the files of contracts/ (the schemas and the catalogue), so a report says which contracts
 * it was judged by. The document they come from, in contracts/spec/, has a hash of its own.
 */
export function contractsHash(): string {
  const hash = createHash('sha256');
  for (const f of contractFileNames()) hash.update(f).update(readFileSync(path.join(CONTRACTS_DIR, f)));
  return hash.digest('hex').slice(0, 16);
}

/** Each file of contracts/ (the catalogue, the profiles, the schemas) with the SHA-256 of its bytes, by its path in the suite. */
export function contractFiles(): { name: string; sha256: string }[] {
  return contractFileNames().map((f) => ({
    name: `contracts/${f}`,
    sha256: createHash('sha256')
      .update(readFileSync(path.join(CONTRACTS_DIR, f)))
      .digest('hex'),
  }));
}
