import { expect, test } from '@playwright/test';
import { VALID_VARIANTS } from '../../reference-server/variants/index.ts';
import { outcomesOf, serveVariants, unpassedReasons } from './variant-run.ts';

const runAgainst = serveVariants();

for (const variant of VALID_VARIANTS) {
  test(`valid variant ${variant.name} (${variant.description}) passes with exit code 0`, { tag: '@matrix' }, async () => {
    const run = await runAgainst(variant.name);
    expect(run.report, unpassedReasons(run)).toBeDefined();
    const all = outcomesOf(run.report!);
    expect({ failed: all.failed, errored: all.errored }, unpassedReasons(run)).toEqual({ failed: [], errored: [] });
    expect(outcomesOf(run.report!, 'MUST').notExercised, 'the MUST clauses left not exercised').toEqual([...(variant.notExercised ?? [])].sort());
    expect(run.report!.verdict).toBe('pass');
    expect(run.report!.completed).toBe(true);
    expect(run.exitCode).toBe(0);
  });
}
