import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';

// Tenants of a monitoring self-test: a reference server, one tenant that conforms and one behind a fault that
// breaks one profile, in a fleet file whose tokens come from the variables it names.

/** The fault the broken tenant serves: an expired signup token still enabled, which breaks the expired-token profile. */
export const BROKEN = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
/** The profile BROKEN breaks, and which every other profile the tenants claim is met. */
export const BROKEN_PROFILE = 'expired-token';

export interface Tenants {
  /** The fleet file and the variables its tokens are read from, with the report folder. */
  env: Record<string, string>;
  dir: string;
  close: () => Promise<void>;
}

/** The fleet's token variables, the reference fixtures' own tokens (no one's secret). */
export const TOKEN_VARIABLES = {
  CONFORMANCE_TOKEN_REF_ADMIN: REFERENCE_FIXTURES.adminToken,
  CONFORMANCE_TOKEN_REF_FORBIDDEN: REFERENCE_FIXTURES.forbiddenToken,
  CONFORMANCE_TOKEN_REF_SIGNUP: REFERENCE_FIXTURES.signupTokens.join(','),
};

/** A reference server and a fleet file of `conformant` and `broken` tenants (names given), in a folder of their own. */
export async function startTenants(conformant: string[], broken: string[], extra: string[] = []): Promise<Tenants> {
  const server = await startReferenceServer(0, [BROKEN]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'monitoring-'));
  const entry = (name: string, baseUrl: string) => `  - { name: ${JSON.stringify(name)}, baseUrl: ${baseUrl} }`;
  const fleet = path.join(dir, 'fleet.yaml');
  writeFileSync(
    fleet,
    [
      'defaults: { adminTokenFrom: CONFORMANCE_TOKEN_REF_ADMIN, forbiddenTokenFrom: CONFORMANCE_TOKEN_REF_FORBIDDEN, signupTokensFrom: CONFORMANCE_TOKEN_REF_SIGNUP }',
      'targets:',
      ...conformant.map((name) => entry(name, server.url)),
      ...broken.map((name) => entry(name, `${server.url}/variants/${BROKEN.name}`)),
      ...extra,
      '',
    ].join('\n'),
  );
  const env = { ...TOKEN_VARIABLES, CONFORMANCE_TARGETS: fleet, CONFORMANCE_REPORT_DIR: path.join(dir, 'report') };
  const close = () => new Promise<void>((resolve) => server.server.close(() => resolve()));
  return { env, dir, close };
}

/** Every sample of a text exposition, `name{labels}` → value, for a test to read without a parser of its own rules. */
export function samplesOf(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}
