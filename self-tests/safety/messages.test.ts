import { expect, test } from '@playwright/test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../harness/config/config.ts';
import { recordingReference } from '../support/hostile-servers.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// No message quotes a secret or the credentials of a URL, and a token the reports could not hide safely
// is refused before any request, with one line that names where it was given and never the token.

const RULE = '(a token needs at least 8 characters, at least 4 of them different, and no \\ or &)';

/** The one line a configuration error gives, or what went wrong instead. */
function configurationLine(env: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-messages-'));
  try {
    loadConfig(env, dir);
    return 'accepted';
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TARGET = referenceTargetEnv('http://127.0.0.1:9');

const UNSAFE: [token: string, reason: string][] = [
  ['1', 'it has fewer than 8 characters'],
  ['"', 'it has fewer than 8 characters'],
  [':', 'it has fewer than 8 characters'],
  ['true', 'it has fewer than 8 characters'],
  ['admin', 'it has fewer than 8 characters'],
  ['aaaaaaaaaaaa', 'it has fewer than 4 different characters'],
  ['abababababab', 'it has fewer than 4 different characters'],
  ['tok\\en-2024', "it holds a \\ or &, which the reports' own escaping could spell out"],
  ['tok&en-2024', "it holds a \\ or &, which the reports' own escaping could spell out"],
];

// Each variable that gives a secret, how the line names it, and how the unsafe token is given in it.
const PLACES: [variable: string, named: string, given: (token: string) => string][] = [
  ['CONFORMANCE_ADMIN_TOKEN', 'CONFORMANCE_ADMIN_TOKEN', (t) => t],
  ['CONFORMANCE_FORBIDDEN_TOKEN', 'CONFORMANCE_FORBIDDEN_TOKEN entry 2', (t) => `reference-viewer-token-7d21be,${t}`],
  ['CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP', 'CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP', (t) => t],
  ['CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS', 'CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS', (t) => t],
  ['CONFORMANCE_SIGNUP_TOKENS', 'CONFORMANCE_SIGNUP_TOKENS entry 3', (t) => `b5f1c2d4e6a8091b2c3d4e5f60718293,c0ffee00aa11bb22cc33dd44ee55ff66,${t}`],
];

for (const [variable, named, given] of PLACES) {
  test(`a token too short or too simple to redact safely in ${variable} is refused with one line that does not quote it`, () => {
    const lines = UNSAFE.map(([token]) => configurationLine({ ...TARGET, [variable]: given(token) }));
    expect(lines).toEqual(UNSAFE.map(([, reason]) => `${named} cannot be hidden safely in the reports: ${reason} ${RULE}`));
  });
}

const PASSWORD = 'pa55-w0rd-s3cret';

/** Base URLs that carry credentials or a query, and the line each gives: neither the user name nor the password in it. */
const URLS: [url: string, line: string][] = [
  [`https://deployer:${PASSWORD}@unleash.example.com`, 'CONFORMANCE_BASE_URL must not carry credentials; give the token in CONFORMANCE_ADMIN_TOKEN'],
  [`http//deployer:${PASSWORD}@unleash.example.com`, 'CONFORMANCE_BASE_URL is not an absolute URL (expected e.g. https://unleash.example.com)'],
  [`deployer:${PASSWORD}@unleash.example.com`, 'CONFORMANCE_BASE_URL must start with http:// or https://'],
  [`ftp://deployer:${PASSWORD}@unleash.example.com`, 'CONFORMANCE_BASE_URL must start with http:// or https://'],
  [`https://unleash.example.com/?token=${PASSWORD}`, 'CONFORMANCE_BASE_URL must not have a query or fragment: give the part before /api/admin'],
  [`https//unleash.example.com/?token=${PASSWORD}`, 'CONFORMANCE_BASE_URL is not an absolute URL (expected e.g. https://unleash.example.com)'],
  [`https://unleash.example.com/#${PASSWORD}`, 'CONFORMANCE_BASE_URL must not have a query or fragment: give the part before /api/admin'],
];

for (const [url, line] of URLS) {
  test(`a base URL with credentials or a query is refused without quoting them: ${url.replace(PASSWORD, '…')}`, () => {
    expect(configurationLine({ ...TARGET, CONFORMANCE_BASE_URL: url })).toBe(line);
  });
}

/** Every file under a folder, as text. */
function filesUnder(dir: string): [string, string][] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => [path.join(e.parentPath, e.name), readFileSync(path.join(e.parentPath, e.name), 'utf8')]);
}

// The stderr line is compared whole; a secret long enough to search for is also searched in every file the run left.
const RUNS: [title: string, env: (url: string) => Record<string, string>, line: string, secret?: string][] = [
  [
    'an admin token too short to redact',
    (url) => referenceTargetEnv(url, { CONFORMANCE_ADMIN_TOKEN: 'admin' }),
    `CONFORMANCE_ADMIN_TOKEN cannot be hidden safely in the reports: it has fewer than 8 characters ${RULE}`,
  ],
  [
    'a base URL with a user name and password',
    (url) => referenceTargetEnv(url.replace('//', `//deployer:${PASSWORD}@`)),
    'CONFORMANCE_BASE_URL must not carry credentials; give the token in CONFORMANCE_ADMIN_TOKEN',
    PASSWORD,
  ],
];

for (const [title, env, line, secret] of RUNS) {
  test(`${title} stops the run with exit code 2 and one line, and no output or file quotes the secret`, async () => {
    const target = await recordingReference();
    try {
      const run = await runSuite(env(target.url));
      expect(run.exitCode, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toBe(`conformance: configuration error: ${line}\n`);
      expect(run.stdout).toBe('');
      expect(target.seen).toEqual([]);
      const quoting =
        secret === undefined
          ? []
          : filesUnder(run.reportDir)
              .filter(([, content]) => content.includes(secret))
              .map(([file]) => file);
      expect(quoting).toEqual([]);
      expect(run.report?.errors).toEqual([`configuration error: ${line}`]);
    } finally {
      await target.close();
    }
  });
}
