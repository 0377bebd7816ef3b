import { spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { undiciParts } from '../../harness/network.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The transport loads the parts of undici it uses from their own files, not its index (harness/network.ts):
// a run's start then pays 15 ms for undici instead of 40 ms or more. An undici that moved them would be
// loaded whole, still correct, and these tests would say so.

test("undici's parts the suite loads from their files are the very ones its index exports", () => {
  const parts = undiciParts();
  expect(parts, 'an undici file the suite loads is no longer where it was: see harness/network.ts').toBeDefined();
  const { Agent, Pool, EnvHttpProxyAgent, buildConnector } = require('undici') as typeof import('undici');
  expect(parts).toStrictEqual({ Agent, Pool, EnvHttpProxyAgent, buildConnector });
});

test('a dispatcher made from those parts alone, its index never loaded, has the request API', () => {
  // A process of its own: in this one, undici's index may have added the API already.
  const script = `
    const parts = require('./harness/network.ts').undiciParts();
    const index = Object.keys(require.cache).some((f) => f.endsWith('/undici/index.js'));
    console.log(JSON.stringify({ request: typeof new parts.Agent().request, index }));
    process.exit(0);`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: PROJECT_ROOT, timeout: 20_000, encoding: 'utf8' });
  expect(JSON.parse(run.stdout), run.stderr).toEqual({ request: 'function', index: false });
});
