import { serialise } from '../server.ts';
import { FAULTS } from './faults.ts';
import type { Fault } from './transforms.ts';

// Faults that break their clause on some answers only, deterministic by how many answers they would have changed:
// the first such answer is broken, the next faithful, and so on. A run with --confirm finds them flaky, no verdict.
// Each keeps its own count: a test that needs the first answer broken makes a fresh one.

/** `fault` on every `every`-th answer it would change, the first among them; the others faithful. */
function sometimes(fault: Fault, every: number): Fault {
  let changed = 0;
  return {
    ...fault,
    name: `${fault.name}-sometimes`,
    description: `${fault.description}, on one answer in ${every} (the first), the others faithful`,
    transform(request, faithful) {
      const broken = fault.transform(request, faithful);
      if (serialise(broken).text === serialise(faithful()).text) return broken;
      return changed++ % every === 0 ? broken : faithful();
    },
  };
}

/** A fresh flaky fault: a token whose expiresAt has passed is enabled on every other answer, the first among them. */
export const expiredTokenEnabledSometimes = (): Fault => sometimes(FAULTS.find((f) => f.name === 'expired-token-enabled')!, 2);

/** The flaky faults the reference command serves; judged once, each breaks its clause, judged again, not always. */
export const FLAKY_FAULTS: Fault[] = [expiredTokenEnabledSometimes()];
