import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../harness/config/config.ts';
import { ConfigError } from '../../harness/files/config-error.ts';
import { loadRun } from '../../run/prepare.ts';
import { recordingReference } from '../support/hostile-servers.ts';
import { referenceTargetEnv, runSuite } from '../support/run-suite.ts';

// Issue 4, part 2: a configuration mistake stops the run before any request, with exit code 2 and one
// line that says what to fix. Each mistake is read as data, by the function the Playwright config calls;
// a few, one of each kind of source, also run as a black box to prove the wiring (the exit code, the line,
// the report folder, no request).

interface Mistake {
  title: string;
  /** The run's environment, given a loopback target that records requests and a scratch folder. */
  env(targetUrl: string, dir: string): Record<string, string>;
  line: string;
  /** The mistake is in the report folder itself, so no report can be written there (and only a run takes the folder). */
  noReport?: true;
  /** Also run as a black box. */
  run?: true;
}

/** A target file in the test's folder, which CONFORMANCE_TARGET names, and these variables besides. */
function withTargetFile(dir: string, text: string, env: Record<string, string> = {}): Record<string, string> {
  writeFileSync(path.join(dir, 'target.yaml'), text);
  return { CONFORMANCE_TARGET: path.join(dir, 'target.yaml'), ...env };
}

const MISTAKES: Mistake[] = [
  {
    title: 'an empty base URL and admin token, as a CI job whose secrets are missing gives them',
    run: true,
    env: () => ({ CONFORMANCE_BASE_URL: '', CONFORMANCE_ADMIN_TOKEN: '' }),
    line: 'CONFORMANCE_BASE_URL is set but empty in the environment: give it a value or unset it (a CI secret that is missing arrives empty)',
  },
  {
    title: 'a token without a base URL',
    env: () => ({ CONFORMANCE_ADMIN_TOKEN: 'a-token-of-the-deployment' }),
    line: "CONFORMANCE_ADMIN_TOKEN is set but CONFORMANCE_BASE_URL is not: give the deployment's base URL, or unset CONFORMANCE_ADMIN_TOKEN to check the embedded reference target",
  },
  {
    title: 'a misspelt variable',
    run: true,
    env: (url) => ({ CONFORMANCE_BASEURL: url, CONFORMANCE_ADMIN_TOKEN: 'a-token-of-the-deployment' }),
    line: 'the environment sets CONFORMANCE_BASEURL, which the suite does not know; did you mean CONFORMANCE_BASE_URL? (admin-api-conformance --help lists them)',
  },
  {
    title: 'no target at all under CI',
    env: () => ({ CI: 'true' }),
    line: 'no target under CI (CI is set): set CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN (or CONFORMANCE_TARGET), or CONFORMANCE_EMBEDDED=true to check the embedded reference target',
  },
  // Jenkins, Azure Pipelines and TeamCity set no CI: a job of theirs whose secrets are missing is in CI all the same.
  ...(
    [
      ['Jenkins', 'JENKINS_URL', 'https://jenkins.example.com/'],
      ['Azure Pipelines', 'TF_BUILD', 'True'],
      ['TeamCity', 'TEAMCITY_VERSION', '2025.07'],
      ['CI set to yes', 'CI', 'yes'],
    ] as const
  ).map(([service, variable, value]) => ({
    title: `no target at all in a job of ${service}`,
    env: () => ({ [variable]: value }),
    line: `no target under CI (${variable} is set): set CONFORMANCE_BASE_URL and CONFORMANCE_ADMIN_TOKEN (or CONFORMANCE_TARGET), or CONFORMANCE_EMBEDDED=true to check the embedded reference target`,
  })),
  {
    title: 'no base URL while the embedded target is disabled',
    env: () => ({ CONFORMANCE_EMBEDDED: 'false' }),
    line: 'no target: set CONFORMANCE_BASE_URL (or CONFORMANCE_TARGET), or allow the embedded reference target (CONFORMANCE_EMBEDDED)',
  },
  {
    title: 'a base URL without its scheme',
    env: () => referenceTargetEnv('localhost:4242'),
    line: 'CONFORMANCE_BASE_URL must start with http:// or https://; it starts with "localhost:"',
  },
  {
    title: 'a base URL that is not a URL',
    env: () => referenceTargetEnv('http//unleash.example.com'),
    line: 'CONFORMANCE_BASE_URL is not an absolute URL: "http//unleash.example.com" (expected e.g. https://unleash.example.com)',
  },
  {
    title: 'a target file that does not exist',
    env: (url, dir) => referenceTargetEnv(url, { CONFORMANCE_TARGET: path.join(dir, 'missing.yaml') }),
    line: 'the target file $DIR/missing.yaml cannot be read (ENOENT)',
  },
  {
    title: 'a target file that is a folder',
    env: (url, dir) => referenceTargetEnv(url, { CONFORMANCE_TARGET: dir }),
    line: 'the target file $DIR cannot be read (EISDIR)',
  },
  {
    title: 'a signup-token list with a blank entry',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_SIGNUP_TOKENS: 'b5f1c2d4e6a8091b2c3d4e5f60718293,,c0ffee00aa11bb22cc33dd44ee55ff66' }),
    line: 'CONFORMANCE_SIGNUP_TOKENS has an empty entry at position 2: remove the stray comma or blank list item',
  },
  {
    title: 'a signup-token list in the target file with a blank item',
    env: (url, dir) => {
      const file = path.join(dir, 'target.yaml');
      writeFileSync(file, `baseUrl: ${url}\nadminToken: reference-admin-token-0f3c9a\nsignupTokens:\n  - b5f1c2d4e6a8091b2c3d4e5f60718293\n  -\n`);
      return { CONFORMANCE_TARGET: file };
    },
    line: 'the target file $DIR/target.yaml: signupTokens.1 is empty; known keys: name, baseUrl, adminToken, forbiddenToken, forbiddenTokenSignup, forbiddenTokenProjects, signupTokens, timeoutMs, maxBodyBytes, deviations, caFile, clientCert, clientKey, openapiPath, claim, readProductVersion, product',
  },
  {
    title: 'an unquoted Unleash admin token in the target file, which YAML reads as an alias',
    run: true,
    env: (url, dir) => {
      const file = path.join(dir, 'target.yaml');
      writeFileSync(file, `baseUrl: ${url}\nadminToken: *:*.d3adb33fcafe0123456789\n`);
      return { CONFORMANCE_TARGET: file };
    },
    line: 'the target file $DIR/target.yaml is not valid YAML (BAD_ALIAS at line 2, column 13); quote values that start with * & ! % @ or `, as Unleash tokens (*:*.…) do',
  },
  {
    title: 'a token in the target file that YAML reads as a number',
    env: (url, dir) => {
      const file = path.join(dir, 'target.yaml');
      writeFileSync(file, `baseUrl: ${url}\nadminToken: 0x1F\n`);
      return { CONFORMANCE_TARGET: file };
    },
    line: 'the target file $DIR/target.yaml: adminToken must be a string (quote it in YAML); known keys: name, baseUrl, adminToken, forbiddenToken, forbiddenTokenSignup, forbiddenTokenProjects, signupTokens, timeoutMs, maxBodyBytes, deviations, caFile, clientCert, clientKey, openapiPath, claim, readProductVersion, product',
  },
  {
    title: 'a report folder that is a file',
    env: (url, dir) => {
      writeFileSync(path.join(dir, 'reports'), 'not a folder');
      return referenceTargetEnv(url, { CONFORMANCE_REPORT_DIR: path.join(dir, 'reports') });
    },
    line: 'CONFORMANCE_REPORT_DIR $DIR/reports is a file, not a folder',
    noReport: true,
  },
  {
    title: 'a report folder on a virtual file system',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_REPORT_DIR: '/proc/self/conformance' }),
    line: 'CONFORMANCE_REPORT_DIR /proc/self/conformance lies on a virtual file system; give a folder on disk',
    noReport: true,
  },
  {
    title: 'a timeout beyond what a timer holds, which would fire at once',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_TIMEOUT_MS: String(2 ** 31) }),
    line: 'CONFORMANCE_TIMEOUT_MS must be at most 2147483647, not 2147483648',
  },
  {
    title: 'a huge repeat count',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_REPEAT: '99999999999999999999' }),
    line: 'CONFORMANCE_REPEAT must be at most 1000, not 99999999999999999999',
  },
  {
    title: 'a token an HTTP header cannot carry',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_ADMIN_TOKEN: 'tökenwith-umlaut-0123' }),
    line: 'CONFORMANCE_ADMIN_TOKEN holds a character an HTTP header cannot carry, at position 2; give the token as the deployment issued it',
  },
  {
    title: 'two target files whose names differ only in case',
    run: true,
    env: (url, dir) => {
      const files = ['Staging', 'staging'].map((name, i) => {
        const file = path.join(dir, `t${i}.yaml`);
        writeFileSync(file, `name: ${name}\nbaseUrl: ${url}\nadminToken: reference-admin-token-0f3c9a\n`);
        return file;
      });
      return { CONFORMANCE_TARGETS: files.join(',') };
    },
    line: 'the targets "Staging" and "staging" would share the report folder targets/staging; give them names that differ in more than case or punctuation',
  },
  // A name is bounded: its report folder's name is made of it (ENAMETOOLONG was an error of the suite's own, exit 3).
  {
    title: 'a name bound: a target name of 10 KB in a file of CONFORMANCE_TARGETS',
    run: true,
    env: (url, dir) => {
      writeFileSync(path.join(dir, 'a.yaml'), `name: ${'eu-'.repeat(3400)}\nbaseUrl: ${url}\nadminToken: reference-admin-token-0f3c9a\n`);
      return { CONFORMANCE_TARGETS: path.join(dir, 'a.yaml') };
    },
    line: "the target file $DIR/a.yaml: CONFORMANCE_TARGET_NAME (name) is 10200 characters long; a target's name is at most 253 characters, which its report folder's name is made of",
  },
  {
    title: 'a name bound: a base URL whose host, the name of a target given none, is 10 KB long',
    env: () => referenceTargetEnv(`http://${'a'.repeat(60)}${'.b'.repeat(5000)}.example`),
    line: "the target's name, the host of CONFORMANCE_BASE_URL (baseUrl) when no name is given, is 10068 characters long; a target's name is at most 253 characters, which its report folder's name is made of: give it a name",
  },
  {
    title: 'a name bound: a target name holding a line break and a workflow command',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_TARGET_NAME: 'staging\n::error::planted' }),
    line: "CONFORMANCE_TARGET_NAME (name) holds a control, line break, bidi or invisible character at position 8 (\\n); a target's name is one line of visible characters",
  },
  {
    title: 'a name bound: a target name holding a bidi override',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_TARGET_NAME: 'staging\u202egnitsaelp' }),
    line: "CONFORMANCE_TARGET_NAME (name) holds a control, line break, bidi or invisible character at position 8 (\\u202e); a target's name is one line of visible characters",
  },
  {
    title: 'an evidence bundle to replay that is set but empty',
    run: true,
    env: () => ({ CONFORMANCE_REPLAY: '' }),
    line: 'CONFORMANCE_REPLAY is set but empty: give the evidence bundle to replay, or unset it',
  },
  {
    title: 'a report folder named by spaces alone',
    env: () => ({ CONFORMANCE_REPORT_DIR: '   ' }),
    line: 'CONFORMANCE_REPORT_DIR holds only spaces: give a folder, or unset it for the default',
  },
  {
    title: 'an evidence folder named by a tab',
    env: () => ({ CONFORMANCE_EVIDENCE_DIR: '\t' }),
    line: 'CONFORMANCE_EVIDENCE_DIR holds only spaces: give a folder, or unset it for the default',
  },
  {
    title: 'variables spelt in lower case',
    run: true,
    env: (url) => ({ conformance_base_url: url, conformance_admin_token: 'reference-admin-token-0f3c9a' }),
    line: 'the environment sets conformance_base_url, which the suite does not know; did you mean CONFORMANCE_BASE_URL? (admin-api-conformance --help lists them)',
  },
  {
    title: 'a variable whose prefix is misspelt',
    env: (url) => ({ CONFORMACE_BASE_URL: url }),
    line: 'the environment sets CONFORMACE_BASE_URL, which the suite does not know; did you mean CONFORMANCE_BASE_URL? (admin-api-conformance --help lists them)',
  },
  {
    title: 'a variable in .env spelt in mixed case',
    env: (url, dir) => {
      writeFileSync(path.join(dir, '.env'), `Conformance_Base_Url=${url}\n`);
      return {};
    },
    line: '.env ($DIR/.env) sets Conformance_Base_Url, which the suite does not know; did you mean CONFORMANCE_BASE_URL? (admin-api-conformance --help lists them)',
  },
  {
    title: '.env that is a folder',
    env: (_, dir) => {
      mkdirSync(path.join(dir, '.env'));
      return {};
    },
    line: '.env ($DIR/.env) cannot be read (EISDIR)',
  },
  {
    title: 'a target file that is a FIFO, which would wait for a writer for ever',
    env: (_url, dir) => {
      execFileSync('mkfifo', [path.join(dir, 'target.yaml')]);
      return { CONFORMANCE_TARGET: path.join(dir, 'target.yaml') };
    },
    line: 'the target file $DIR/target.yaml cannot be read (not a regular file)',
  },
  {
    title: 'a single target file beside CONFORMANCE_TARGETS',
    env: (url, dir) => {
      writeFileSync(path.join(dir, 'a.yaml'), `baseUrl: ${url}\nadminToken: reference-admin-token-0f3c9a\n`);
      return { CONFORMANCE_TARGETS: path.join(dir, 'a.yaml'), CONFORMANCE_TARGET: path.join(dir, 'a.yaml') };
    },
    line: 'CONFORMANCE_TARGETS names the target files, which alone describe their targets; unset CONFORMANCE_TARGET',
  },
  {
    title: 'a file of CONFORMANCE_TARGETS without a base URL',
    env: (_, dir) => {
      writeFileSync(path.join(dir, 'a.yaml'), 'name: staging\nadminToken: reference-admin-token-0f3c9a\n');
      return { CONFORMANCE_TARGETS: path.join(dir, 'a.yaml') };
    },
    line: 'the target file $DIR/a.yaml has no baseUrl; every target in CONFORMANCE_TARGETS must name a deployment',
  },
  {
    title: 'a base URL on port 0',
    env: () => referenceTargetEnv('http://127.0.0.1:0'),
    line: 'CONFORMANCE_BASE_URL has port 0, where no server listens: give the port the deployment serves on',
  },
  {
    title: 'the admin token among the signup tokens',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_SIGNUP_TOKENS: 'b5f1c2d4e6a8091b2c3d4e5f60718293,reference-admin-token-0f3c9a' }),
    line: 'CONFORMANCE_SIGNUP_TOKENS (signupTokens) entry 2 is the same token as CONFORMANCE_ADMIN_TOKEN (adminToken); give each token once',
  },
  {
    title: 'the admin token as the forbidden token of a target file',
    env: (url, dir) => withTargetFile(dir, `baseUrl: ${url}\nadminToken: reference-admin-token-0f3c9a\nforbiddenToken: reference-admin-token-0f3c9a\n`),
    // Both tokens were given by the file: the line says so, in its words.
    line: 'the target file $DIR/target.yaml: forbiddenToken is the same token as adminToken; give each token once',
  },
  {
    title: 'a target file whose base URL is of another scheme',
    env: (_, dir) => withTargetFile(dir, 'baseUrl: ftp://127.0.0.1:9\nadminToken: reference-admin-token-0f3c9a\n'),
    line: 'the target file $DIR/target.yaml: baseUrl must start with http:// or https://; it starts with "ftp:"',
  },
  {
    title: 'a target file without an admin token, which the environment could give as well',
    env: (url, dir) => withTargetFile(dir, `baseUrl: ${url}\n`),
    line: 'the target file $DIR/target.yaml: CONFORMANCE_ADMIN_TOKEN (adminToken) is required when baseUrl is set',
  },
  {
    title: 'a short admin token from the environment beside a target file, said as the variable it came in',
    env: (url, dir) => withTargetFile(dir, `baseUrl: ${url}\n`, { CONFORMANCE_ADMIN_TOKEN: 'short' }),
    line: 'CONFORMANCE_ADMIN_TOKEN cannot be hidden safely in the reports: it has fewer than 8 characters (a token needs at least 8 characters, at least 4 of them different, and no \\ or &)',
  },
  {
    title: 'one token given as two forbidden credentials',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS: 'reference-viewer-token-7d21be' }),
    line: 'CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS (forbiddenTokenProjects) is the same token as CONFORMANCE_FORBIDDEN_TOKEN (forbiddenToken); give each token once',
  },
  {
    title: 'an evidence folder that is the report folder',
    env: (url, dir) => referenceTargetEnv(url, { CONFORMANCE_REPORT_DIR: path.join(dir, 'out'), CONFORMANCE_EVIDENCE_DIR: path.join(dir, 'out') }),
    line: 'CONFORMANCE_EVIDENCE_DIR $DIR/out and CONFORMANCE_REPORT_DIR $DIR/out overlap: the evidence folder holds the bundle alone, and a run clears its report folder; give two separate folders',
  },
  {
    title: 'an evidence folder that holds the report folder',
    env: (url, dir) => referenceTargetEnv(url, { CONFORMANCE_REPORT_DIR: path.join(dir, 'out', 'report'), CONFORMANCE_EVIDENCE_DIR: path.join(dir, 'out') }),
    line: 'CONFORMANCE_EVIDENCE_DIR $DIR/out and CONFORMANCE_REPORT_DIR $DIR/out/report overlap: the evidence folder holds the bundle alone, and a run clears its report folder; give two separate folders',
  },
  {
    title: 'a gate that is no gate',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_GATE: 'regression' }),
    line: 'CONFORMANCE_GATE is "regression" (did you mean regressions?); give must (any MUST violation fails the run, the default) or regressions (only a regression against CONFORMANCE_BASELINE fails it)',
  },
  {
    title: 'the ratchet without a baseline, in .env',
    env: (url, dir) => {
      writeFileSync(path.join(dir, '.env'), 'CONFORMANCE_GATE=regressions\nCONFORMANCE_BASELINE=\n');
      return referenceTargetEnv(url);
    },
    line: 'CONFORMANCE_GATE=regressions fails the run only on a regression against a baseline, and CONFORMANCE_BASELINE is not set: give the report folder, conformance.json or evidence bundle of the run to compare with',
  },
  {
    title: 'a baseline that is not there',
    env: (url, dir) => referenceTargetEnv(url, { CONFORMANCE_BASELINE: path.join(dir, 'last-night') }),
    line: 'CONFORMANCE_BASELINE: there is no file or folder $DIR/last-night',
  },
  {
    title: 'a baseline that is no report',
    run: true,
    env: (url, dir) => {
      writeFileSync(path.join(dir, 'conformance.json'), '{"verdict": "pass"}\n');
      return referenceTargetEnv(url, { CONFORMANCE_BASELINE: dir, CONFORMANCE_GATE: 'regressions', CONFORMANCE_REPORT_DIR: path.join(dir, 'out') });
    },
    line: 'CONFORMANCE_BASELINE: $DIR/conformance.json does not match the report\'s schema: the top level lacks "reportVersion"; the top level lacks "suite"; the top level lacks "document"',
  },
  {
    title: 'a baseline that is a FIFO, which would never end',
    env: (url, dir) => {
      execFileSync('mkfifo', [path.join(dir, 'baseline.json')]);
      return referenceTargetEnv(url, { CONFORMANCE_BASELINE: path.join(dir, 'baseline.json') });
    },
    line: 'CONFORMANCE_BASELINE: $DIR/baseline.json cannot be read (not a regular file)',
  },
  {
    title: 'a baseline in the report folder, which the run clears',
    env: (url, dir) => referenceTargetEnv(url, { CONFORMANCE_BASELINE: path.join(dir, 'conformance-report') }),
    line: 'CONFORMANCE_BASELINE $DIR/conformance-report lies in the report folder $DIR/conformance-report, which this run clears: the next run would compare with this one; copy the baseline elsewhere and name the copy',
  },
  {
    title: 'a run timeout that is not a number',
    env: (url) => referenceTargetEnv(url, { CONFORMANCE_RUN_TIMEOUT_MS: '10m' }),
    line: 'CONFORMANCE_RUN_TIMEOUT_MS must be a positive whole number, not "10m"',
  },
];

for (const mistake of MISTAKES.filter((m) => !m.noReport)) {
  test(`${mistake.title} is a configuration error whose one line says what to fix`, async () => {
    const target = await recordingReference();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-config-'));
    try {
      let thrown: unknown;
      try {
        loadRun(mistake.env(target.url, dir), dir);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toBe(mistake.line.replaceAll('$DIR', dir));
      expect(target.seen).toEqual([]);
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

for (const mistake of MISTAKES.filter((m) => m.run || m.noReport)) {
  test(`${mistake.title} stops the run before any request, with exit code 2 and one line saying what to fix`, async () => {
    const target = await recordingReference();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-config-'));
    try {
      const run = await runSuite(mistake.env(target.url, dir));
      expect(run.exitCode, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toBe(`conformance: configuration error: ${mistake.line.replaceAll('$DIR', dir)}\n`);
      expect(run.stdout).toBe('');
      // No earlier verdict stands in the report folder: it says the run ended in a configuration error.
      if (mistake.noReport) expect(run.report).toBeUndefined();
      else {
        const line = `configuration error: ${mistake.line.replaceAll('$DIR', dir)}`;
        expect(run.report).toMatchObject({ verdict: 'error', completed: false, errors: [line] });
        // No target was read, and none is invented; the reason comes first in every report, before any row.
        expect(run.report?.target).toBeUndefined();
        const summary = readFileSync(path.join(run.reportDir, 'summary.md'), 'utf8').split('\n');
        expect(summary.findIndex((l) => l.startsWith('> configuration error: '))).toBe(2);
        const page = readFileSync(path.join(run.reportDir, 'index.html'), 'utf8');
        expect(page.indexOf('data-testid="reason"')).toBeLessThan(page.indexOf('data-testid="counts"'));
        expect(page).not.toContain('127.0.0.1');
      }
      expect(target.seen).toEqual([]);
      expect(run.durationMs).toBeLessThan(60_000);
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('an empty run setting in .env counts as unset, as it does in the environment; an empty target setting is refused', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-dotenv-'));
  try {
    writeFileSync(path.join(dir, '.env'), 'CONFORMANCE_TIMEOUT_MS=\nCONFORMANCE_REPORT_DIR=\n');
    const config = loadConfig({ CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'an-admin-token' }, dir);
    expect(config).toMatchObject({ signupTokens: [], timeoutMs: 30_000, reportDir: path.join(dir, 'conformance-report') });
    writeFileSync(path.join(dir, '.env'), 'CONFORMANCE_SIGNUP_TOKENS=\n');
    expect(() => loadConfig({ CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123' }, dir)).toThrow(
      'CONFORMANCE_SIGNUP_TOKENS is set but empty in .env',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("CI=false says a run is not in CI, whatever a CI service's variable says; the embedded target is then checked", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-not-ci-'));
  try {
    for (const env of [{ CI: 'false', JENKINS_URL: 'https://jenkins.example.com/' }, { CI: '0', BUILD_NUMBER: '7' }, { TF_BUILD: 'False' }]) {
      expect(loadRun(env, dir).targets.map((t) => t.embedded)).toEqual([true]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Within the 16 MiB a settings file may have, YAML nested a hundred thousand deep would exhaust the parser's
// memory after minutes: its shape is read first, and it is refused at once.
test('a deviations file nested far deeper than a settings file is refused at once in one line, block or flow', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-deep-yaml-'));
  try {
    for (const [name, text] of [
      ['block.yaml', `deviations:\n${'- '.repeat(100_000)}x\n`],
      ['flow.yaml', `deviations: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`],
    ]) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const env = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123456', CONFORMANCE_DEVIATIONS: file };
      expect(() => loadConfig(env, dir)).toThrow(`the deviations file ${file} nests deeper than a settings file does`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A configuration error quotes what a file or a variable gave (a path, a base URL, a value): a line break in it
// would start a line of its own in a CI log (a workflow command, `::error::`), a bidi override would reorder the
// line. Every such character is written as an escape, in the one line and in the report.
test('escaped quotes: whatever a configuration error quotes of a file or a variable is escaped, so no line it prints starts a workflow command or reorders text', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-quoted-'));
  try {
    const planted = path.join(dir, 'x\n::error::planted\u202e.yaml');
    for (const [env, line] of [
      [{ CONFORMANCE_TARGET: planted }, `the target file ${dir}/x\\n::error::planted\\u202e.yaml cannot be read (ENOENT)`],
      [
        referenceTargetEnv('http//flags\u202e.example.com\r\n::error::planted'),
        'CONFORMANCE_BASE_URL is not an absolute URL: "http//flags\\u202e.example.com\\r\\n::error::planted" (expected e.g. https://unleash.example.com)',
      ],
      [
        referenceTargetEnv('http://127.0.0.1:9', { CONFORMANCE_RUN_TIMEOUT_MS: '10m\u2029::error::planted' }),
        'CONFORMANCE_RUN_TIMEOUT_MS must be a positive whole number, not "10m\\u2029::error::planted"',
      ],
      [
        referenceTargetEnv('http://127.0.0.1:9', { CONFORMANCE_OPENAPI_PATH: '/docs openapi\u2066' }),
        'CONFORMANCE_OPENAPI_PATH must be a path below the base URL starting with /, such as /docs/openapi.json, not "/docs openapi\\u2066"',
      ],
    ] as const) {
      const run = await runSuite(env);
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toBe(`conformance: configuration error: ${line}\n`);
      expect(run.stderr).not.toMatch(/[\u2028\u2029\u202e\r]/);
      expect(run.report?.errors).toEqual([`configuration error: ${line}`]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// What a schema wants is said in words (harness/files/schema-words.ts), never as the regular expression or bound
// ajv would quote.
const IN_WORDS: [entry: string, line: string][] = [
  ['{ clause: projects.project.health-range, reason: " " }', 'deviations.0.reason must be text, not blank'],
  ['{ clause: projects.project.health-range, reason: x, expires: "next May" }', 'deviations.0.expires must be a date, YYYY-MM-DD, such as 2027-01-31'],
  [
    '{ clause: projects.project.health-range, reason: x, kind: flaky, since: "May 1", expires: 2099-01-01 }',
    'deviations.0.since must be a date, YYYY-MM-DD, such as 2027-01-31',
  ],
];

for (const [entry, line] of IN_WORDS)
  test(`a deviations file's mistake is said in words: ${line}`, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-words-'));
    try {
      const file = path.join(dir, 'deviations.yaml');
      writeFileSync(file, `deviations:\n  - ${entry}\n`);
      const env = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123456', CONFORMANCE_DEVIATIONS: file };
      expect(() => loadConfig(env, dir)).toThrow(new ConfigError(`the deviations file ${file}: ${line}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
