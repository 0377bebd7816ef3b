import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../harness/config/config.ts';
import { applicableDeviations } from '../../harness/config/deviations.ts';

// Issue 41, point 2: the repo's Unleash deviations file is taken as it is, and a key a deviations file does not
// know is named: such a file holds no secret.

const TARGET = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123' };
const ROOT = path.join(__dirname, '../../');

function withDeviations(text: string): () => unknown {
  return () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-deviations-'));
    try {
      writeFileSync(path.join(dir, 'deviations.yaml'), text);
      return loadConfig({ ...TARGET, CONFORMANCE_DEVIATIONS: 'deviations.yaml' }, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test("the repo's targets/unleash/deviations.yaml is a deviations file a staging user may name as it is", () => {
  const config = loadConfig({ ...TARGET, CONFORMANCE_DEVIATIONS: 'targets/unleash/deviations.yaml' }, ROOT);
  expect(config.deviations.length).toBeGreaterThan(0);
  expect(config.deviations.every((d) => d.versions !== undefined)).toBe(true);
  // Every entry of the file applies to 8.2.0 or is set aside for it: no entry is lost.
  const { applied, setAside } = applicableDeviations(config.deviations, '8.2.0');
  expect(applied.length + setAside.length).toBe(config.deviations.length);
  expect(applied.map((d) => d.clause)).toContain('error.projects.401');
});

test('a key a deviations file does not know is named, with the keys it knows', () => {
  const entry = '  - clause: error.projects.401\n    reason: r\n';
  expect(withDeviations(`deviations:\n${entry}    version: 8.2.0\n`)).toThrow('deviations.0 has an unknown key "version"; did you mean "versions"?');
  expect(withDeviations(`deviations:\n${entry}    ticket: JIRA-12\n`)).toThrow(
    'deviations.0 has an unknown key "ticket"; known keys: clause, reason, link, expires, versions',
  );
});

test('a range that is none is named with its entry; one clause may be listed for two ranges, never twice for one', () => {
  const entry = (versions: string) => `  - clause: error.projects.401\n    reason: r\n    versions: "${versions}"\n`;
  expect(withDeviations(`deviations:\n${entry('8.x')}`)).toThrow('deviation 1: versions "8.x" is not a range of versions: "8.x" is not a version');
  expect(withDeviations(`deviations:\n${entry('<7.0.0')}${entry('>=7.0.0')}`)).not.toThrow();
  expect(withDeviations(`deviations:\n${entry('<7.0.0')}${entry('<7.0.0')}`)).toThrow('lists error.projects.401 twice');
  expect(withDeviations(`deviations:\n${entry('<7.0.0')}  - clause: error.projects.401\n    reason: r\n`)).toThrow('lists error.projects.401 twice');
});

test('of two entries for one clause whose ranges meet, the first that holds the version applies', () => {
  const d = (reason: string, versions: string) => ({ clause: 'error.projects.401', reason, versions });
  const { applied, setAside } = applicableDeviations([d('old', '<7.0.0'), d('any', '>=4.0.0')], '6.10.1');
  expect(applied.map((x) => x.reason)).toEqual(['old']);
  expect(setAside.map((x) => x.reason)).toEqual(['any']);
  expect(applicableDeviations([d('old', '<7.0.0')], undefined).applied).toEqual([]);
  expect(applicableDeviations([{ clause: 'error.projects.401', reason: 'every version' }], undefined).applied).toHaveLength(1);
});
