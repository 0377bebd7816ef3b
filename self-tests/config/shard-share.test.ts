import { expect, test } from '@playwright/test';
import { ConfigError } from '../../harness/files/config-error.ts';
import { shareGiven } from '../../harness/config/targets.ts';

// CONFORMANCE_SHARD=auto takes a job's share from the CI engine that runs it, so that one recipe serves every
// job of a matrix; anything that does not say which share is a configuration error in one line.

const SHARES: [string, Record<string, string>, string][] = [
  ['2/3', {}, '2/3'],
  ['2/3', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4' }, '2/3'],
  ['auto', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '4' }, '3/4'],
  ['auto/4', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '4' }, '3/4'],
  ['auto/10', { JOB_COMPLETION_INDEX: '0' }, '1/10'],
  [' auto / 10 ', { JOB_COMPLETION_INDEX: '9' }, '10/10'],
];

for (const [given, env, share] of SHARES)
  test(`CONFORMANCE_SHARD=${JSON.stringify(given)} with ${JSON.stringify(env)} is share ${share}`, () => {
    expect(shareGiven(given, env)).toBe(share);
  });

const REFUSED: [string, Record<string, string>, string][] = [
  [
    'auto',
    {},
    "CONFORMANCE_SHARD=auto takes the share from the CI engine: GitLab's parallel: (CI_NODE_INDEX, CI_NODE_TOTAL) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), and neither is set here; give i/n",
  ],
  [
    'auto',
    { JOB_COMPLETION_INDEX: '2' },
    'CONFORMANCE_SHARD=auto in a Kubernetes Indexed Job needs the number of completions, which no pod is told: give auto/<completions>',
  ],
  ['auto/3', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4' }, "CONFORMANCE_SHARD=auto/3 gives 3 shares, GitLab's CI_NODE_TOTAL 4: give auto alone"],
];

for (const [given, env, line] of REFUSED)
  test(`CONFORMANCE_SHARD=${given} with ${JSON.stringify(env)} is refused in one line`, () => {
    expect(() => shareGiven(given, env)).toThrow(new ConfigError(line));
  });
