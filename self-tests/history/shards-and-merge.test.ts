import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { ShardOfRun } from '../../harness/judging/verdicts.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { merge } from '../../run/commands.ts';
import { runConformance } from '../../run/engine.ts';
import { removeScratch, scratch } from '../support/in-process-bundle.ts';
import { shardFolder } from '../support/shard-folders.ts';

// A sharded run appends to the history once, for the whole run: a shard appends nothing, and the merge appends a
// line per target of the run, under the run's identity, each naming its bundle as merged.

test.afterAll(removeScratch);

const place = (shard: string): ShardOfRun => ({ run: 'nightly 12', shard, runTargets: ['eu', 'us', 'ap'] });

test('a shard appends nothing to the history; the merge of its run appends one line per target', async () => {
  const server = await startReferenceServer();
  const dir = scratch();
  const history = path.join(dir, 'history.jsonl');
  try {
    const fleet = path.join(dir, 'fleet.yaml');
    writeFileSync(
      fleet,
      `defaults: { adminTokenFrom: CONFORMANCE_TOKEN_ADMIN }\ntargets:\n  - { name: eu, baseUrl: "${server.url}" }\n  - { name: us, baseUrl: "${server.url}" }\n`,
    );
    const shard = await runConformance({
      env: { CONFORMANCE_TARGETS: fleet, CONFORMANCE_TOKEN_ADMIN: REFERENCE_FIXTURES.adminToken, CONFORMANCE_SHARD: '1/2', CONFORMANCE_RUN_ID: 'nightly 11' },
      cwd: dir,
      reportDir: path.join(dir, 'shard'),
      history,
    });
    expect(shard.targets.map((t) => t.name)).toEqual(['eu']);
    expect(existsSync(history)).toBe(false);
  } finally {
    await new Promise<void>((resolve) => server.server.close(() => resolve()));
  }
  const shards = scratch();
  shardFolder(path.join(shards, 'shard-1'), place('1/2'));
  shardFolder(path.join(shards, 'shard-2'), place('2/2'));
  let stderr = '';
  const out = path.join(dir, 'merged');
  const exitCode = await merge([shards], {
    env: { CONFORMANCE_REPORT_DIR: out, CONFORMANCE_HISTORY: history },
    cwd: dir,
    output: { out: () => {}, err: (t) => void (stderr += t) },
  });
  expect([exitCode, stderr]).toEqual([0, '']);
  const lines = readFileSync(history, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => [l.run, l.target.name])).toEqual([
    ['nightly 12', 'eu'],
    ['nightly 12', 'ap'],
    ['nightly 12', 'us'],
  ]);
  for (const l of lines) expect(l.bundle).toMatch(/^[0-9a-f]{64}$/);
});
