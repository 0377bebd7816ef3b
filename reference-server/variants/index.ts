import type { Variant } from '../server.ts';
import { FAULTS } from './faults.ts';
import { VALID_VARIANTS } from './valid.ts';
import { FLAKY_FAULTS, expiredTokenEnabledSometimes } from './flaky.ts';

export * from './transforms.ts';
export { FAULTS, VALID_VARIANTS, FLAKY_FAULTS, expiredTokenEnabledSometimes };

/** Every variant judged the same way each time, for one reference server to serve under /variants/<name>; the flaky faults are apart. */
export const ALL_VARIANTS: Variant[] = [...FAULTS, ...VALID_VARIANTS];
