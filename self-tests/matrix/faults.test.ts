import { expect, test } from '@playwright/test';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { judgedVariant } from './judged.ts';

// Each fault, judged in process: exactly its declared MUST clauses fail, exactly its declared ones are errored.
for (const fault of FAULTS) {
  test(`fault ${fault.name} (${fault.description}) fails exactly ${fault.breaks.join(', ')}`, { tag: '@matrix' }, () => {
    const judged = judgedVariant(fault);
    expect({ failed: judged.must.failed, errored: judged.must.errored }, judged.explain()).toEqual({
      failed: [...fault.breaks].sort(),
      errored: [...(fault.errors ?? [])].sort(),
    });
  });
}
