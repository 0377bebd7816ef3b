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

// A CI engine's variable that is set, but holds no share, is named with what is wrong with it: "neither is set
// here" sends the reader looking for a variable that is there.
const OUT_OF_RANGE: [string, Record<string, string>, string][] = [
  [
    'auto/2',
    { JOB_COMPLETION_INDEX: '-1' },
    `CONFORMANCE_SHARD=auto/2 takes the share from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, and JOB_COMPLETION_INDEX is "-1", not a whole number from 0; give i/n`,
  ],
  [
    'auto/2',
    { JOB_COMPLETION_INDEX: '1.5' },
    `CONFORMANCE_SHARD=auto/2 takes the share from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, and JOB_COMPLETION_INDEX is "1.5", not a whole number from 0; give i/n`,
  ],
  [
    'auto/2',
    { JOB_COMPLETION_INDEX: '2' },
    `CONFORMANCE_SHARD=auto/2 takes the share from a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, and JOB_COMPLETION_INDEX is 2, not a whole number from 0 to 1 (the 2 completions CONFORMANCE_SHARD=auto/2 gives)`,
  ],
  ['auto/0', { JOB_COMPLETION_INDEX: '0' }, `CONFORMANCE_SHARD=auto/0 gives no completions: give auto/<completions>, the number of the Job's completions`],
  [
    'auto',
    { CI_NODE_INDEX: '0', CI_NODE_TOTAL: '3' },
    `CONFORMANCE_SHARD=auto takes the share from GitLab's CI_NODE_INDEX of CI_NODE_TOTAL, and CI_NODE_INDEX is "0", not a whole number from 1 to CI_NODE_TOTAL (3); give i/n`,
  ],
  [
    'auto',
    { CI_NODE_INDEX: '4', CI_NODE_TOTAL: '3' },
    `CONFORMANCE_SHARD=auto takes the share from GitLab's CI_NODE_INDEX of CI_NODE_TOTAL, and CI_NODE_INDEX is "4", not a whole number from 1 to CI_NODE_TOTAL (3); give i/n`,
  ],
  [
    'auto',
    { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '-3' },
    `CONFORMANCE_SHARD=auto takes the share from GitLab's CI_NODE_INDEX of CI_NODE_TOTAL, and CI_NODE_TOTAL is "-3", not a whole number from 1; give i/n`,
  ],
  [
    'auto',
    { CI_NODE_INDEX: '2' },
    `CONFORMANCE_SHARD=auto takes the share from GitLab's CI_NODE_INDEX of CI_NODE_TOTAL, and CI_NODE_INDEX is set but CI_NODE_TOTAL is not; set both, as parallel: does, or give i/n`,
  ],
];

for (const [given, env, line] of OUT_OF_RANGE)
  test(`a CI engine's shard value out of range: CONFORMANCE_SHARD=${given} with ${JSON.stringify(env)} names the value and what is wrong with it`, () => {
    expect(() => shareGiven(given, env)).toThrow(new ConfigError(line));
  });

test('a GitLab job outside parallel: (CI_NODE_TOTAL 1, no CI_NODE_INDEX) sets no share: auto there is refused as where neither is set', () => {
  expect(() => shareGiven('auto', { CI_NODE_TOTAL: '1' })).toThrow('and neither is set here; give i/n');
});
