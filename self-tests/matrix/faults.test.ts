import { expect, test } from '@playwright/test';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { outcomesOf, serveVariants, unpassedReasons } from './variant-run.ts';

const runAgainst = serveVariants();

for (const fault of FAULTS) {
  test(`fault ${fault.name} (${fault.description}) fails exactly ${fault.breaks.join(', ')}`, { tag: '@matrix' }, async () => {
    const run = await runAgainst(fault.name);
    expect(run.report, unpassedReasons(run)).toBeDefined();
    const { failed, errored } = outcomesOf(run.report!, 'MUST');
    expect({ failed, errored }, unpassedReasons(run)).toEqual({ failed: [...fault.breaks].sort(), errored: [...(fault.errors ?? [])].sort() });
    expect(run.report!.verdict).toBe('fail');
    expect(run.report!.completed).toBe(true);
    expect(run.exitCode).toBe(1);
  });
}
