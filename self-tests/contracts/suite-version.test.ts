import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SUITE_VERSION } from '../../harness/contracts/run-identity.ts';
import { suiteVersionFrom } from '../../harness/contracts/suite-package.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The suite's version is read from its own package.json, nowhere else written: in a clone (package.json two
// folders above harness/contracts/) and in the installed package (three above dist/harness/contracts/).

/** A package folder with this package.json, and the folder its harness/contracts modules run from. */
function layout(packageJson: object, modules: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'conformance-suite-version-'));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify(packageJson));
  mkdirSync(path.join(root, modules), { recursive: true });
  return path.join(root, modules);
}

test("SUITE_VERSION is package.json's version", () => {
  expect(SUITE_VERSION).toBe(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).version);
});

test("the version is found where a clone keeps package.json and where the installed package does, and only in the suite's own", () => {
  expect(suiteVersionFrom(layout({ name: 'admin-api-conformance', version: '7.8.9' }, 'harness/contracts'))).toBe('7.8.9');
  expect(suiteVersionFrom(layout({ name: 'admin-api-conformance', version: '7.8.10' }, 'dist/harness/contracts'))).toBe('7.8.10');
  // An application that installed the suite has a package.json of its own, which names another package.
  expect(() => suiteVersionFrom(layout({ name: 'some-application', version: '1.0.0' }, 'harness/contracts'))).toThrow(
    "the suite's package.json (of admin-api-conformance, with its version) is at none of",
  );
});
