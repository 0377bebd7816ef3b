import { rmSync } from 'node:fs';

/** The folder every temporary folder of a self-test run lies in (self-tests/playwright.config.ts). */
export const SCRATCH_VARIABLE = 'SELF_TESTS_SCRATCH';

/** Global teardown: the run's scratch folder goes, whatever its tests left in it. */
export default function removeScratchRoot(): void {
  const root = process.env[SCRATCH_VARIABLE];
  if (!root) return;
  try {
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    process.stderr.write(`self-tests: the scratch folder ${root} could not be removed (${(error as NodeJS.ErrnoException).code}); remove it by hand\n`);
  }
}
