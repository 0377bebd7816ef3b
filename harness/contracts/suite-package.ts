import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The suite's version is its package's: read from the package.json it ships in, so that a release changes
// one number. A clone runs these modules from harness/contracts/, two folders below package.json; the
// installed package runs their build from dist/harness/contracts/, three below.

const NAME = 'admin-api-conformance';

/** The places of the suite's package.json, from the folder of a module of harness/contracts: a clone's, then the installed package's. */
const candidates = (moduleDir: string) => [path.join(moduleDir, '..', '..', 'package.json'), path.join(moduleDir, '..', '..', '..', 'package.json')];

/** The version in the suite's own package.json, found from the folder of a module of harness/contracts. */
export function suiteVersionFrom(moduleDir: string): string {
  for (const file of candidates(moduleDir)) {
    if (!existsSync(file)) continue;
    const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
    if (name === NAME && typeof version === 'string') return version;
  }
  throw new Error(`the suite's package.json (of ${NAME}, with its version) is at none of ${candidates(moduleDir).join(', ')}`);
}
