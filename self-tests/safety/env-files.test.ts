import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../harness/config/config.ts';
import { replayFolderProblem } from '../../harness/config/replay-folder.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// Issue 4, part 3: secrets go in .env, which git never sees; .env.example says what can go there.

const read = (file: string) => readFileSync(path.join(PROJECT_ROOT, file), 'utf8');

/** Every CONFORMANCE_* name the configuration code mentions: harness/ and the Playwright config. */
function variablesInCode(): string[] {
  const files = readdirSync(path.join(PROJECT_ROOT, 'harness'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join('harness', f));
  const names = [...files, 'playwright.config.ts'].flatMap((f) => read(f).match(/\bCONFORMANCE_[A-Z_]+\b/g) ?? []);
  return [...new Set(names)].sort();
}

test('.env is ignored by git and .env.example is not', () => {
  const patterns = read('.gitignore')
    .split('\n')
    .map((line) => line.trim());
  expect(patterns.some((p) => p === '.env' || p === '/.env')).toBe(true);
  expect(patterns.filter((p) => /^\/?\.env[*.]/.test(p))).toEqual([]);
});

test('.env.example documents every CONFORMANCE_ variable the configuration code reads', () => {
  const documented = new Set(
    read('.env.example')
      .match(/^#? ?CONFORMANCE_[A-Z_]+(?==)/gm)
      ?.map((line) => line.replace(/^# ?/, '')),
  );
  const found = variablesInCode();
  expect(found.length).toBeGreaterThan(10);
  // A prefix (CONFORMANCE_TOKEN_, a family of variables a fleet file names) is documented by an example of its family.
  const isDocumented = (name: string) => documented.has(name) || (name.endsWith('_') && [...documented].some((d) => d.startsWith(name)));
  expect(found.filter((name) => !isDocumented(name))).toEqual([]);
});

test('.env.example copied to .env is a valid configuration once the admin token is filled in', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-env-example-'));
  try {
    copyFileSync(path.join(PROJECT_ROOT, '.env.example'), path.join(dir, '.env'));
    expect(() => loadConfig({}, dir)).toThrow('CONFORMANCE_ADMIN_TOKEN is set but empty in .env');
    const config = loadConfig({ CONFORMANCE_ADMIN_TOKEN: 'filled-in' }, dir);
    expect(config).toMatchObject({ embedded: false, adminToken: 'filled-in', signupTokens: [], reportDir: path.join(dir, 'conformance-report') });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Every `CONFORMANCE_NAME=value` line of .env.example, commented out or not: the settings it shows. */
const exampleSettings = () =>
  Object.fromEntries([...read('.env.example').matchAll(/^#? ?(CONFORMANCE_[A-Z_]+)=(.*)$/gm)].map((m) => [m[1], m[2]] as [string, string]));

test(".env.example shows only the settings a user gives, each of the command's own (--help lists them), none the suite sets for itself", () => {
  const { variables } = JSON.parse(read('harness/config/variables.json')) as { variables: { name: string }[] };
  const names = variables.map((v) => v.name);
  // A token a fleet file names (CONFORMANCE_TOKEN_<NAME>) is a variable of the user's naming, declared by its prefix.
  expect(Object.keys(exampleSettings()).filter((name) => !names.includes(name) && !name.startsWith('CONFORMANCE_TOKEN_'))).toEqual([]);
  expect(names.filter((name) => !(name in exampleSettings()))).toEqual([]);
});

test('.env.example shows a bundle to replay where the suite takes it: outside the report folder it shows', () => {
  const { CONFORMANCE_REPLAY, CONFORMANCE_REPORT_DIR } = exampleSettings();
  expect(CONFORMANCE_REPLAY).toBeTruthy();
  const settings = { CONFORMANCE_REPLAY, CONFORMANCE_REPORT_DIR };
  expect(replayFolderProblem({ env: {}, dotenv: settings, dotenvFile: '.env' }, PROJECT_ROOT)).toBeUndefined();
  // The same check refuses the bundle the example used to show, in the report folder every run clears first.
  const inReportFolder = { ...settings, CONFORMANCE_REPLAY: 'conformance-report/evidence.tar.gz' };
  expect(replayFolderProblem({ env: {}, dotenv: inReportFolder, dotenvFile: '.env' }, PROJECT_ROOT)).toContain('lies in the report folder');
});

test('the tarball npm pack makes is ignored by git', () => {
  const ignored = execFileSync('git', ['check-ignore', '--no-index', 'admin-api-conformance-0.1.0.tgz', 'admin-api-conformance-1.2.3.tgz'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  });
  expect(ignored.trim().split('\n')).toEqual(['admin-api-conformance-0.1.0.tgz', 'admin-api-conformance-1.2.3.tgz']);
});
