import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { TOKEN_KEYS } from '../../harness/config/target-file.ts';
import { loadTargets } from '../../harness/config/targets.ts';
import { ConfigError } from '../../harness/files/config-error.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { loadRun } from '../../run/prepare.ts';
import { optionsProblem } from '../../tests/runner.ts';
import { recordingReference } from '../support/hostile-servers.ts';
import { PROJECT_ROOT, runSuite } from '../support/run-suite.ts';

// A fleet file lists many targets with the settings they share, and names the environment variable of each
// token rather than hold it: CONFORMANCE_TARGETS takes it as it takes target files, side by side with them.

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-fleet-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Each token's variable is one the run declares as a token by its name (harness/config/token-variables.ts).
const TOKENS = {
  CONFORMANCE_TOKEN_EU: 'eu-admin-0123456789',
  CONFORMANCE_TOKEN_US: 'us-admin-9876543210',
  CONFORMANCE_TOKEN_US_SIGNUP: 'us-signup-aaaa1111,us-signup-bbbb2222',
};

function fleet(text: string): string {
  const file = path.join(dir, `fleet-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return file;
}

test('each target of a fleet file takes the defaults, its own settings, and its tokens from the variables it names', () => {
  const file = fleet(`defaults:
  claim: [core, projects-data]
  timeoutMs: 5000
  deviations: ./deviations.yaml
targets:
  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }
  - { name: us, baseUrl: "https://us.example.com", adminTokenFrom: CONFORMANCE_TOKEN_US, signupTokensFrom: CONFORMANCE_TOKEN_US_SIGNUP, timeoutMs: 9000 }
`);
  writeFileSync(path.join(dir, 'deviations.yaml'), 'deviations: []\n');
  const run = loadTargets({ CONFORMANCE_TARGETS: file, ...TOKENS }, dir);
  expect(run.targets.map((t) => [t.name, t.baseUrl, t.adminToken, t.signupTokens, t.timeoutMs, t.claim])).toEqual([
    ['eu', 'https://eu.example.com', TOKENS.CONFORMANCE_TOKEN_EU, [], 5000, ['core', 'projects-data']],
    ['us', 'https://us.example.com', TOKENS.CONFORMANCE_TOKEN_US, ['us-signup-aaaa1111', 'us-signup-bbbb2222'], 9000, ['core', 'projects-data']],
  ]);
  expect(run.reportDir).toBe(path.join(dir, 'conformance-report'));
});

const REFUSED: [string, string, string][] = [
  [
    'a token written in the file',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminToken: "eu-admin-0123456789" }\n',
    '$FILE, target 1 gives adminToken itself; a fleet file holds no token: name its environment variable, as adminTokenFrom: CONFORMANCE_TOKEN_EU',
  ],
  [
    'a token variable that is not set',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU_MISSING }\n',
    '$FILE, target 1 takes adminToken from CONFORMANCE_TOKEN_EU_MISSING, which is not set or empty',
  ],
  [
    'a token variable that is no variable name',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: "*:*.abc" }\n',
    '$FILE, target 1: adminTokenFrom must name an environment variable, such as CONFORMANCE_TOKEN_EU',
  ],
  [
    'defaults that name a deployment',
    'defaults: { baseUrl: "https://eu.example.com" }\ntargets:\n  - { name: eu, adminTokenFrom: CONFORMANCE_TOKEN_EU }\n',
    '$FILE: defaults give baseUrl, which each target has its own',
  ],
  ['no target', 'targets: []\n', '$FILE: targets must be a list of one target or more'],
  [
    'a key besides defaults and targets, perhaps a token pasted there',
    'targets: [{ name: eu }]\neu-admin-0123456789: 1\n',
    'the fleet file $PATH has a key besides defaults and targets, which is all it holds',
  ],
  [
    'a target without a base URL',
    'targets:\n  - { name: eu, adminTokenFrom: CONFORMANCE_TOKEN_EU }\n',
    '$FILE, target 1 has no baseUrl; every target in CONFORMANCE_TARGETS must name a deployment',
  ],
  // A target's settings are checked as any target's; the line says which target, in the words of its file, never by
  // the variables the file stands for, which no one set.
  [
    'a target without an admin token',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }\n  - { name: us, baseUrl: "https://us.example.com" }\n',
    '$FILE, target 2: adminToken (adminTokenFrom) is required when baseUrl is set',
  ],
  [
    'a base URL of another scheme',
    'targets:\n  - { name: eu, baseUrl: "ftp://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }\n',
    '$FILE, target 1: baseUrl must start with http:// or https://; it starts with "ftp:"',
  ],
  [
    'a base URL that carries credentials',
    'targets:\n  - { name: eu, baseUrl: "https://someone:pass@eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }\n',
    '$FILE, target 1: baseUrl must not carry credentials; give the token in adminToken (adminTokenFrom)',
  ],
  [
    'one token given twice',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU, forbiddenTokenFrom: CONFORMANCE_TOKEN_EU }\n',
    '$FILE, target 1: forbiddenToken (forbiddenTokenFrom) is the same token as adminToken (adminTokenFrom); give each token once',
  ],
  [
    'two targets of one name',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }\n  - { name: eu, baseUrl: "https://us.example.com", adminTokenFrom: CONFORMANCE_TOKEN_US }\n',
    '$FILE, target 2 has the name "eu" of $FILE, target 1; give each target of CONFORMANCE_TARGETS a name of its own',
  ],
];

/** What loading a fleet file threw: a configuration error, whatever else it is. */
function refusalOf(file: string): Error {
  let thrown: unknown;
  try {
    loadTargets({ CONFORMANCE_TARGETS: file, ...TOKENS }, dir);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as Error;
}

for (const [title, text, line] of REFUSED)
  test(`a fleet file with ${title} is refused in one line that quotes no token`, () => {
    const file = fleet(text);
    const thrown = refusalOf(file);
    expect(thrown.message).toBe(line.replaceAll('$FILE', `the fleet file ${file}`).replace('$PATH', file));
    for (const token of Object.values(TOKENS)) expect(thrown.message).not.toContain(token);
  });

// Beyond the mistakes with words of their own, a fleet file is checked against its schema where it is read
// (harness/files/schemas/fleet-file.schema.json): the field is named, a key only as a misspelling of a known one.
const MISSHAPEN: [string, string, string][] = [
  [
    'a timeout that is no number',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU, timeoutMs: "soon" }\n',
    '$FILE: targets.0.timeoutMs must be of type integer',
  ],
  [
    'a misspelt key',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU, timeotMs: 5000 }\n',
    '$FILE: targets.0 has an unknown key "timeotMs"; did you mean "timeoutMs"?',
  ],
  [
    'a key in the defaults that may be a token pasted there',
    'defaults: { "eu-admin-0123456789": 1 }\ntargets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }\n',
    '$FILE: defaults has a key it does not know (not shown, as it may be a secret)',
  ],
  [
    'a tag whose name is no name, which is not quoted',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU, tags: { "eu-admin-0123456789!": x } }\n',
    '$FILE: targets.0.tags has a key that is not a name of letters, digits, _, . and -, starting with a letter or _, of at most 63 characters',
  ],
  [
    'a tag of control characters',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU, tags: { tier: "a\\u0001b" } }\n',
    '$FILE: targets.0.tags.tier must be text without control characters',
  ],
  [
    'an empty tag',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU, tags: { tier: "" } }\n',
    '$FILE: targets.0.tags.tier must not be empty',
  ],
  [
    'a claim in the defaults that is neither a name nor a list',
    'defaults: { claim: 5 }\ntargets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }\n',
    '$FILE: defaults.claim must be a string (quote it in YAML); defaults.claim must be of type array',
  ],
  [
    'a product that is a list',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU, product: [Unleash] }\n',
    '$FILE: targets.0.product must be of type object',
  ],
  [
    'a deviations file left empty',
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU, deviations: }\n',
    '$FILE: targets.0.deviations is empty',
  ],
];

for (const [title, text, line] of MISSHAPEN)
  test(`a fleet file with ${title} is refused in one line naming the field`, () => {
    const file = fleet(text);
    const thrown = refusalOf(file);
    expect(thrown.message).toBe(line.replace('$FILE', `the fleet file ${file}`));
    for (const token of Object.values(TOKENS)) expect(thrown.message).not.toContain(token);
  });

test("a fleet file's targets take the keys of a target file, each token key named by its variable instead, and their tags", () => {
  const schema = (name: string) => JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'harness', 'files', 'schemas', name), 'utf8'));
  const [target, fleetFile] = [schema('target-file.schema.json'), schema('fleet-file.schema.json')];
  // Tags are the inventory's, a fleet file's own: a target file describes one target, which nothing scores.
  const expected = [...Object.keys(target.properties).map((key) => (TOKEN_KEYS.includes(key) ? `${key}From` : key)), 'tags'].sort();
  expect(Object.keys(fleetFile.properties.targets.items.properties).sort()).toEqual(expected);
  expect(Object.keys(fleetFile.properties.defaults.properties).sort()).toEqual(expected.filter((key) => key !== 'name' && key !== 'baseUrl'));
});

test('a run of a fleet file judges each of its targets, and the matrix names them', async () => {
  const fault = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
  const server = await startReferenceServer(0, [fault]);
  try {
    const { adminToken, signupTokens } = REFERENCE_FIXTURES;
    const file =
      fleet(`defaults: { signupTokensFrom: CONFORMANCE_TOKEN_SIGNUP, adminTokenFrom: CONFORMANCE_TOKEN_ADMIN, claim: [core, projects-data, signup-tokens, expired-token, user-dates] }
targets:
  - { name: faithful, baseUrl: "${server.url}" }
  - { name: broken, baseUrl: "${server.url}/variants/${fault.name}" }
`);
    const run = await runSuite({ CONFORMANCE_TARGETS: file, CONFORMANCE_TOKEN_ADMIN: adminToken, CONFORMANCE_TOKEN_SIGNUP: signupTokens.join(',') });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const matrix = run.report as unknown as MatrixReport;
    expect(matrix.targets.map((t) => [t.name, t.verdict])).toEqual([
      ['faithful', 'pass'],
      ['broken', 'fail'],
    ]);
  } finally {
    await new Promise<void>((resolve) => server.server.close(() => resolve()));
  }
});

// Read by the function the Playwright configuration refuses its options with (tests/runner.ts); a refusal of Playwright's
// options run whole, exit code 2 and its one line, is suite/shards.test.ts's.
test('a fleet has no project per target: --project is refused in one line, nothing sent', () => {
  const targets = Array.from({ length: 9 }, (_, i) => `  - { name: t${i + 1}, baseUrl: "http://127.0.0.1:9", adminTokenFrom: CONFORMANCE_TOKEN_EU }`);
  const file = fleet(`targets:\n${targets.join('\n')}\n`);
  const run = loadRun({ CONFORMANCE_TARGETS: file, CONFORMANCE_TOKEN_EU: TOKENS.CONFORMANCE_TOKEN_EU }, path.dirname(file));
  for (const argv of [['--project=t3'], ['--project', 't3']])
    expect(optionsProblem(argv, run)).toBe(
      '--project selects one of at most 8 targets; this run has 9, one test per clause for them all: give CONFORMANCE_TARGETS only the targets to judge',
    );
  expect(optionsProblem(['--grep', 'projects'], run)).toBeUndefined();
});

// What a fleet reads is bounded, by size and by count, each with one line: a 15 MiB fleet file of 185,043 targets
// (under the 16 MiB of other settings files) used to be parsed for half a minute and checked in quadratic time,
// and no request went out in five minutes.
test('fleet bounds: a fleet file larger than a YAML settings file may be is refused by its size, before it is parsed', async () => {
  const lines = Array.from(
    { length: 60_000 },
    (_, i) => `  - { name: t${i}, baseUrl: "https://deployment-${i}.flags.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }`,
  );
  const file = fleet(`targets:\n${lines.join('\n')}\n`);
  const run = await runSuite({ CONFORMANCE_TARGETS: file, ...TOKENS });
  expect(run.exitCode, run.stderr).toBe(2);
  expect(run.stderr).toBe(
    `conformance: configuration error: the target file ${file} holds more than 4 MiB, the most a YAML settings file may (the largest fleet a run takes holds about 1.5 MiB)\n`,
  );
});

test('fleet bounds: a fleet of more targets than a run judges is refused by its count in one line, and so are files that list more together', () => {
  const targets = (from: number, n: number) => Array.from({ length: n }, (_, i) => `  - { name: t${from + i}, baseUrl: "http://127.0.0.1:9" }`).join('\n');
  const one = fleet(`defaults: { adminTokenFrom: CONFORMANCE_TOKEN_EU }\ntargets:\n${targets(0, 10_001)}\n`);
  expect(() => loadTargets({ CONFORMANCE_TARGETS: one, ...TOKENS }, dir)).toThrow(
    new ConfigError(`the fleet file ${one} lists 10001 targets; a run judges at most 10000, its shards' together: split the fleet into several runs`),
  );
  const [a, b] = [
    fleet(`defaults: { adminTokenFrom: CONFORMANCE_TOKEN_EU }\ntargets:\n${targets(0, 6000)}\n`),
    fleet(`defaults: { adminTokenFrom: CONFORMANCE_TOKEN_EU }\ntargets:\n${targets(6000, 6000)}\n`),
  ];
  expect(() => loadTargets({ CONFORMANCE_TARGETS: `${a},${b}`, ...TOKENS }, dir)).toThrow(
    new ConfigError("CONFORMANCE_TARGETS names more than 10000 targets; a run judges at most 10000, its shards' together: split them into several runs"),
  );
});

// A fleet file is meant to be committed, and names each token's variable beside a base URL of its own choosing: an
// edit that reads as configuration must not send the CI's own secret away. Only a variable the run declares as a
// token is read: its name starts with CONFORMANCE_TOKEN_, or CONFORMANCE_FLEET_TOKENS (the environment's) lists it.
const CI_SECRETS = {
  GITHUB_TOKEN: 'ghs_the-ci-job-token-0123456789',
  ACTIONS_RUNTIME_TOKEN: 'the-runtime-token-of-actions-0123',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-access-key-0123456789',
  NPM_TOKEN: 'npm_the-registry-token-0123456789',
  MY_TEAM_TOKEN: 'a-token-nobody-declared-0123456789',
};

const UNDECLARED: [key: string, variable: string, line: string][] = [
  ...(['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'NPM_TOKEN', 'PATH'] as const).map((variable): [string, string, string] => [
    'adminTokenFrom',
    variable,
    `$FILE, target 1 takes adminToken from ${variable}, a variable of the CI service, the system or the suite, which a fleet file never reads: name a variable that starts with CONFORMANCE_TOKEN_ (the pipeline sets it from its secret)`,
  ]),
  [
    'signupTokensFrom',
    'ACTIONS_RUNTIME_TOKEN',
    '$FILE, target 1 takes signupTokens from ACTIONS_RUNTIME_TOKEN, a variable of the CI service, the system or the suite, which a fleet file never reads: name a variable that starts with CONFORMANCE_TOKEN_ (the pipeline sets it from its secret)',
  ],
  [
    'adminTokenFrom',
    'MY_TEAM_TOKEN',
    '$FILE, target 1 takes adminToken from MY_TEAM_TOKEN, which this run does not declare as a token: name a variable that starts with CONFORMANCE_TOKEN_ (the pipeline sets it from its secret), or list MY_TEAM_TOKEN in CONFORMANCE_FLEET_TOKENS in the environment',
  ],
];

for (const [key, variable, line] of UNDECLARED)
  test(`undeclared token variables: a fleet file whose ${key} names ${variable} is refused in one line naming the variable, nothing sent, its value nowhere`, async () => {
    const target = await recordingReference();
    try {
      const token = key === 'adminTokenFrom' ? '' : ', adminTokenFrom: CONFORMANCE_TOKEN_EU';
      const file = fleet(`targets:\n  - { name: eu, baseUrl: "${target.url}", ${key}: ${variable}${token} }\n`);
      const declared: Record<string, string> = key === 'adminTokenFrom' ? {} : { CONFORMANCE_TOKEN_EU: TOKENS.CONFORMANCE_TOKEN_EU };
      const run = await runSuite({ CONFORMANCE_TARGETS: file, ...declared, ...CI_SECRETS });
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toBe(`conformance: configuration error: ${line.replace('$FILE', `the fleet file ${file}`)}\n`);
      expect(target.seen).toEqual([]);
      const written = JSON.stringify(run.report) + run.stdout + run.stderr;
      for (const secret of [...Object.values(CI_SECRETS), process.env.PATH ?? '']) expect(written).not.toContain(secret);
    } finally {
      await target.close();
    }
  });

test('undeclared token variables: a variable CONFORMANCE_FLEET_TOKENS lists in the environment is read, one named CONFORMANCE_TOKEN_… too', () => {
  const file = fleet(
    'targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: MY_TEAM_TOKEN, signupTokensFrom: CONFORMANCE_TOKEN_US_SIGNUP }\n',
  );
  const run = loadTargets({ CONFORMANCE_TARGETS: file, ...TOKENS, ...CI_SECRETS, CONFORMANCE_FLEET_TOKENS: 'OTHER_TOKEN, MY_TEAM_TOKEN' }, dir);
  expect(run.targets.map((t) => [t.adminToken, t.signupTokens])).toEqual([[CI_SECRETS.MY_TEAM_TOKEN, ['us-signup-aaaa1111', 'us-signup-bbbb2222']]]);
});

test("undeclared token variables: CONFORMANCE_FLEET_TOKENS never declares the CI's own, and neither it nor a token is taken from .env", () => {
  const file = fleet('targets:\n  - { name: eu, baseUrl: "https://eu.example.com", adminTokenFrom: CONFORMANCE_TOKEN_EU }\n');
  for (const [listed, line] of [
    [
      'MY_TEAM_TOKEN,GITHUB_TOKEN',
      'CONFORMANCE_FLEET_TOKENS lists GITHUB_TOKEN, a variable of the CI service, the system or the suite, which no fleet file may read: name a variable that starts with CONFORMANCE_TOKEN_ (the pipeline sets it from its secret)',
    ],
    [
      'CI_JOB_TOKEN',
      'CONFORMANCE_FLEET_TOKENS lists CI_JOB_TOKEN, a variable of the CI service, the system or the suite, which no fleet file may read: name a variable that starts with CONFORMANCE_TOKEN_ (the pipeline sets it from its secret)',
    ],
    [
      'MY_TEAM_TOKEN,*:*.a-token-given-here-by-mistake',
      "CONFORMANCE_FLEET_TOKENS entry 2 is no variable's name (not shown, as it may be a secret); give names such as EU_ADMIN_TOKEN, comma-separated",
    ],
  ])
    expect(() => loadTargets({ CONFORMANCE_TARGETS: file, ...TOKENS, CONFORMANCE_FLEET_TOKENS: listed }, dir)).toThrow(new ConfigError(line));
  const folder = mkdtempSync(path.join(dir, 'dotenv-'));
  for (const name of ['CONFORMANCE_FLEET_TOKENS=MY_TEAM_TOKEN', 'CONFORMANCE_TOKEN_EU=eu-admin-0123456789']) {
    writeFileSync(path.join(folder, '.env'), `${name}\n`);
    expect(() => loadTargets({ CONFORMANCE_TARGETS: file, ...TOKENS }, folder)).toThrow(
      new ConfigError(
        `.env (${folder}/.env) sets ${name.split('=')[0]}, which the environment alone gives: a fleet file's tokens, and the variables declared as tokens, are set where the CI gives its secrets`,
      ),
    );
  }
});
