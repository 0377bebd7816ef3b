// @ts-check
// Builds dist/, the JavaScript the npm package runs: Playwright loads TypeScript from a clone, but not from
// an installed package. The suite's data (contracts, schemas, variables) is copied beside the code that
// reads it, at the same relative places.
const { execFileSync } = require('node:child_process');
const { cpSync, rmSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '../');
const DIST = path.join(ROOT, 'dist');
const DATA = [
  'contracts',
  'harness/files/schemas',
  'harness/config/variables.json',
  'reporters/conformance-report.schema.json',
  'reporters/attestation.schema.json',
  'commands/diff.schema.json',
];

rmSync(DIST, { recursive: true, force: true });
const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit', cwd: ROOT });
for (const entry of DATA) cpSync(path.join(ROOT, entry), path.join(DIST, entry), { recursive: true });
