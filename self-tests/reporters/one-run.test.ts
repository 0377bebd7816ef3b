import { expect, test } from '@playwright/test';
import type { TargetConfig } from '../../harness/config.ts';
import { configurationFacts, digestOf, judgedByThisSuite } from '../../harness/run-identity.ts';
import type { RunFacts } from '../../harness/verdicts.ts';
import { notOneRun } from '../../reporters/one-run.ts';

// The facts each shard's tests carry, judged as data: a merge of shards is one run's only when they name one
// target, one suite and one configuration.

const here = judgedByThisSuite();
const shard = (overrides: Partial<RunFacts> = {}): RunFacts => ({
  target: { name: 'staging', baseUrl: 'https://flags.example.invalid', embedded: false },
  startedAt: '2025-01-01T10:00:00.000Z',
  requests: { count: 12, methods: ['GET'] },
  deviations: [],
  judgedBy: here,
  configuration: '0123456789abcdef',
  ...overrides,
});
const embedded = (port: number) => shard({ target: { name: 'embedded reference target', baseUrl: `http://127.0.0.1:${port}`, embedded: true } });

const oneRun: [string, RunFacts[]][] = [
  ['two shards of one deployment, started at different times', [shard(), shard({ startedAt: '2025-01-01T10:05:00.000Z' })]],
  ['two shards of the embedded reference target, each on a port of its own', [embedded(40149), embedded(35907)]],
  ['a shard duplicated', [shard(), shard()]],
  ['two shards replaying one bundle', [shard({ replay: { bundle: 'a/evidence.tar.gz' } }), shard({ replay: { bundle: 'b/evidence.tar.gz' } })]],
];

const notOne: [string, RunFacts[], string][] = [
  [
    'a deployment and the embedded reference target',
    [embedded(40149), shard()],
    'one shard checked the embedded reference target, another staging (https://flags.example.invalid)',
  ],
  [
    'two deployments under one name',
    [shard(), shard({ target: { name: 'staging', baseUrl: 'https://other.example.invalid', embedded: false } })],
    'another staging (https://other.example.invalid)',
  ],
  ['another suite version', [shard(), shard({ judgedBy: { ...here, suiteVersion: '0.0.9' } })], 'another by suite 0.0.9'],
  ['other contracts', [shard(), shard({ judgedBy: { ...here, contractsHash: 'ffffffffffffffff' } })], 'contracts ffffffffffffffff'],
  ['shards of another suite than the merging one', [shard({ judgedBy: { ...here, suiteVersion: '9.9.9' } })], 'merge them with the suite that ran them'],
  ['another configuration of the same target', [shard(), shard({ configuration: 'fedcba9876543210' })], 'ran with different configurations'],
  [
    'two shards replaying bundles of two runs of one target',
    [shard({ replay: { bundle: 'evidence.tar.gz' } }), shard({ replay: { bundle: 'evidence.tar.gz' }, startedAt: '2025-01-02T10:00:00.000Z' })],
    'one shard replayed a run that started at 2025-01-01T10:00:00.000Z, another one that started at 2025-01-02T10:00:00.000Z',
  ],
  ['a shard that does not name its configuration', [shard(), shard({ configuration: undefined })], 'does not name the suite and configuration'],
];

for (const [name, facts] of oneRun) test(`one run: ${name}`, () => expect(notOneRun(facts, here)).toBeUndefined());

for (const [name, facts, why] of notOne)
  test(`not one run: ${name}`, () => {
    const line = notOneRun(facts, here);
    expect(line).toContain('the blob reports are not of one run');
    expect(line).toContain(why);
  });

const config = (overrides: Partial<TargetConfig> = {}) =>
  ({
    name: 'staging',
    baseUrl: 'https://flags.example.invalid',
    embedded: false,
    adminToken: 'admin-token-1',
    signupTokens: ['secret-a', 'secret-b'],
    forbidden: [],
    timeoutMs: 10_000,
    maxBodyBytes: 1_000_000,
    repeat: 1,
    concurrency: 4,
    deviations: [],
    ...overrides,
  }) as TargetConfig;
const digest = (c: TargetConfig) => digestOf(configurationFacts(c));

test("the configuration's digest leaves out the secrets and the embedded target's port, and keeps what shapes the verdicts", () => {
  expect(digest(config({ adminToken: 'another', signupTokens: ['secret-c', 'secret-d'] }))).toBe(digest(config()));
  const embeddedAt = (port: number) => config({ name: 'embedded reference target', baseUrl: `http://127.0.0.1:${port}`, embedded: true });
  expect(digest(embeddedAt(40149))).toBe(digest(embeddedAt(35907)));
  for (const other of [{ baseUrl: 'https://other.example.invalid' }, { signupTokens: ['secret-a'] }, { timeoutMs: 1 }, { openapiPath: '/openapi.json' }])
    expect(digest(config(other))).not.toBe(digest(config()));
});
