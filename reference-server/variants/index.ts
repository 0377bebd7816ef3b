import type { Variant } from '../server.ts';
import { FAULTS } from './faults.ts';
import { VALID_VARIANTS } from './valid.ts';

export * from './transforms.ts';
export { FAULTS, VALID_VARIANTS };

/** Every variant, for one reference server to serve under /variants/<name>. */
export const ALL_VARIANTS: Variant[] = [...FAULTS, ...VALID_VARIANTS];
