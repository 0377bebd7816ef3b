import type { Outcome } from './violations.ts';

// What conformance.json says of a confirmed failure (its clause's `confirmation`): data only, so that the clause's
// run (verdicts.ts) and the reports name it without importing how it is made (confirmation-evidence.ts).

/** One answer to a request, as the report puts it beside the others: secrets replaced, the body cut. */
export interface ConfirmedAnswer {
  status?: number;
  /** Why no complete answer was read, when none was. */
  failure?: string;
  bodyBytes: number;
  /** SHA-256 of the body with every secret replaced by its placeholder. */
  bodySha256?: string;
  /** The body's first characters, secrets replaced. */
  bodyStart?: string;
}

/** A failed clause judged again on its requests sent again (CONFORMANCE_CONFIRM). */
export interface Confirmation {
  /** How many times the clause was judged: on the first answers, then on each confirmation. */
  runs: number;
  /** How many of those it failed. */
  failed: number;
  /** How many it passed: one or more makes it flaky, which is no verdict. */
  passed: number;
  /** Its outcome each time, the first answers' first. */
  outcomes: Outcome[];
  /** The requests it was judged from whose answers differed (all of them when none did), each answer in the order of `outcomes`. */
  answers: { method: string; path: string; credential: string; answers: ConfirmedAnswer[] }[];
}
