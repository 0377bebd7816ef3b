import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';

export const CONTRACTS_DIR = path.join(__dirname, '..', '..', 'contracts');

export type JsonSchema = { $id: string; [keyword: string]: unknown };

// The suite ships contracts/, and it does not change while the suite runs: its files are read once per process,
// and their hash and digests computed once, however many targets' reports name them.

interface ContractFile {
  name: string;
  bytes: Buffer;
}

let files: ContractFile[] | undefined;

/** The files of contracts/ itself (the catalogue, the profiles, the schemas), by name, in order, read once. */
function contractFileList(): ContractFile[] {
  files ??= readdirSync(CONTRACTS_DIR)
    .filter((f) => statSync(path.join(CONTRACTS_DIR, f)).isFile())
    .sort()
    .map((name) => ({ name, bytes: readFileSync(path.join(CONTRACTS_DIR, name)) }));
  return files;
}

/** The JSON Schemas of section 2, one per object, keyed by file name; each call parses them afresh, for its caller alone. */
export function loadSchemas(): Map<string, JsonSchema> {
  const schemas = contractFileList().filter((f) => f.name.endsWith('.schema.json') && !f.name.startsWith('conformance-report'));
  return new Map(schemas.map((f) => [f.name, JSON.parse(f.bytes.toString('utf8')) as JsonSchema]));
}

let hash: string | undefined;

/**
 * A short hash of the files of contracts/ (the schemas and the catalogue), so a report says which contracts
 * it was judged by. The document they come from, in contracts/spec/, has a hash of its own.
 */
export function contractsHash(): string {
  if (hash !== undefined) return hash;
  const sha = createHash('sha256');
  for (const f of contractFileList()) sha.update(f.name).update(f.bytes);
  return (hash = sha.digest('hex').slice(0, 16));
}

let digests: { name: string; sha256: string }[] | undefined;

/** Each file of contracts/ (the catalogue, the profiles, the schemas) with the SHA-256 of its bytes, by its path in the suite. */
export function contractFiles(): { name: string; sha256: string }[] {
  digests ??= contractFileList().map((f) => ({ name: `contracts/${f.name}`, sha256: createHash('sha256').update(f.bytes).digest('hex') }));
  return digests.map((d) => ({ ...d }));
}
