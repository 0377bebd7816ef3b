import { expect, test } from '@playwright/test';
import { VALID_VARIANTS } from '../../reference-server/variants/index.ts';
import { judgedVariant } from './judged.ts';

// Each valid variant, judged in process: no clause fails or errors, and exactly the declared MUST clauses are left not exercised.
for (const variant of VALID_VARIANTS) {
  test(`valid variant ${variant.name} (${variant.description}) passes`, { tag: '@matrix' }, () => {
    const judged = judgedVariant(variant);
    expect({ failed: judged.all.failed, errored: judged.all.errored }, judged.explain()).toEqual({ failed: [], errored: [] });
    expect(judged.must.notExercised, 'the MUST clauses left not exercised').toEqual([...(variant.notExercised ?? [])].sort());
    expect(judged.must.passed.length).toBeGreaterThan(0);
  });
}

test('the reference target itself passes every clause, every MUST clause exercised', () => {
  const judged = judgedVariant(undefined);
  expect({ failed: judged.all.failed, errored: judged.all.errored, notExercised: judged.all.notExercised }, judged.explain()).toEqual({
    failed: [],
    errored: [],
    notExercised: [],
  });
});
