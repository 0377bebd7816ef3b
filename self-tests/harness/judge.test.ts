import { expect, test } from '@playwright/test';
import { CHECKS } from '../../checks/index.ts';
import { judge } from '../../harness/judge.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

test('a check that throws errors its own clause and no other', () => {
  const broken = 'signup-token.state.expired-not-enabled';
  const checks = CHECKS.map((c) =>
    c.clause === broken
      ? {
          clause: broken,
          judge: () => {
            throw new Error('a fault in the check');
          },
        }
      : c,
  );
  const judged = judge(recordInProcess(undefined), REFERENCE_INPUT, checks);
  expect(judged.filter((c) => c.outcome !== 'passed').map((c) => [c.clause, c.outcome, c.crash])).toEqual([
    [broken, 'errored', `the check of ${broken} broke: a fault in the check`],
  ]);
});

test('every clause is judged once, in the order of the checks', () => {
  expect(judge(recordInProcess(undefined), REFERENCE_INPUT).map((c) => c.clause)).toEqual(CHECKS.map((c) => c.clause));
});
