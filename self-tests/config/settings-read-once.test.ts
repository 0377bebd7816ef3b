import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { targetConfig } from '../../harness/config/config.ts';
import { readSettings } from '../../harness/config/settings.ts';
import { knownVariables } from '../../harness/config/sources.ts';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { documentText } from '../../harness/contracts/document.ts';
import { loadProfiles } from '../../harness/contracts/profiles.ts';
import { check, schemaFile } from '../../harness/files/checked.ts';
import { yamlContent } from '../../harness/files/yaml-file.ts';
import { loadRun } from '../../run/prepare.ts';
import { readsDuring, withoutReads } from '../support/file-reads.ts';

// A run's settings are one value, read once (harness/config/settings.ts): `.env` once however many targets, and
// each target's configuration a pure function of that value, made without reading a file or a variable again.

const TARGETS = 200;
const TOKEN = 'fleet-admin-0123456789';

let dir: string;
let env: Record<string, string>;
let clause: string;
test.beforeAll(() => {
  clause = loadCatalogue()[0].id;
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-read-once-'));
  // .env sets what every target takes: a timeout and the report folder.
  writeFileSync(path.join(dir, '.env'), 'CONFORMANCE_TIMEOUT_MS=4321\nCONFORMANCE_REPORT_DIR=reports\n');
  writeFileSync(path.join(dir, 'deviations.yaml'), `deviations:\n  - { clause: ${clause}, reason: "the gateway answers first" }\n`);
  const targets = Array.from({ length: TARGETS }, (_, i) => `  - { name: t${i + 1}, baseUrl: "https://t${i + 1}.example.com" }`);
  writeFileSync(
    path.join(dir, 'fleet.yaml'),
    `defaults: { adminTokenFrom: CONFORMANCE_TOKEN_FLEET, deviations: ./deviations.yaml }\ntargets:\n${targets.join('\n')}\n`,
  );
  env = { CONFORMANCE_TARGETS: 'fleet.yaml', CONFORMANCE_TOKEN_FLEET: TOKEN };
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test(`.env, the fleet file and the deviations file its targets share are each read once for a fleet of ${TARGETS} targets`, () => {
  const { result: run, reads } = readsDuring(() => loadRun(env, dir));
  const readsOf = (name: string) => reads.filter((r) => r.reader === 'readFileSync' && r.file === path.join(dir, name)).length;
  expect([readsOf('.env'), readsOf('fleet.yaml'), readsOf('deviations.yaml')]).toEqual([1, 1, 1]);
  // What was read once is every target's: each takes .env's timeout and report folder, and the shared deviations.
  expect(run.targets).toHaveLength(TARGETS);
  for (const target of run.targets) {
    expect([target.timeoutMs, target.adminToken, target.deviations.map((d) => d.clause)]).toEqual([4321, TOKEN, [clause]]);
    expect(target.reportDir).toBe(path.join(dir, 'reports', 'targets', target.name));
  }
});

test("a target's configuration is a pure function of the settings: no file and no variable is read while it is made", () => {
  const settings = readSettings(env, dir);
  // The suite's own files are read once per process (its data, its schemas, the YAML parser's code): loaded
  // here, they are not the settings'.
  for (const load of [knownVariables, loadCatalogue, loadProfiles, documentText]) load();
  for (const schema of ['target-file.schema.json', 'deviations.schema.json']) check(schemaFile(schema), {});
  yamlContent({ bytes: Buffer.from('loaded: true\n') }, 'warm.yaml', 'a YAML file');
  // The guard sees reads: reading the settings again reads files, and the environment.
  expect(() => withoutReads(() => readSettings(env, dir))).toThrow(/read/);
  const configs = withoutReads(() => settings.entries.map((entry) => targetConfig(settings, entry)));
  expect(configs.map((c) => c.name)).toEqual(Array.from({ length: TARGETS }, (_, i) => `t${i + 1}`));
  expect(configs.every((c) => c.timeoutMs === 4321 && c.deviations.length === 1)).toBe(true);
});
