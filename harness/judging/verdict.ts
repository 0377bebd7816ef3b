import type { Exchange } from '../transport/exchange.ts';
import type { Requirement } from './requirement.ts';

/** A place in one response where the target does not do what the document says. */
export interface Violation {
  exchange: Exchange;
  /** JSON pointer into the body; empty for the status line or headers. */
  pointer: string;
  received: string;
  /** What the document requires there, as data (harness/judging/requirement.ts words it). */
  requirement: Requirement;
}

/** A response the clause needed but could not judge (network error, not JSON, unexpected status). */
export interface Unevaluable {
  exchange: Exchange;
  reason: string;
}

export type Outcome = 'passed' | 'failed' | 'errored' | 'not-exercised';

/** At most this many violations are kept per clause; the rest are counted. */
export const MAX_VIOLATIONS_KEPT = 50;

/** What one clause found across every response it looked at. */
export class ClauseCheck {
  instances = 0;
  readonly violations: Violation[] = [];
  violationsCut = 0;
  readonly unevaluable: Unevaluable[] = [];
  observations: unknown;
  /** Why the check itself broke, when it did: the clause is errored, never the run. */
  crash?: string;

  constructor(readonly clause: string) {}

  /** Counts things the clause looked at; a clause that looked at nothing was not exercised. */
  count(n = 1): this {
    this.instances += n;
    return this;
  }

  violate(exchange: Exchange, pointer: string, received: string, requirement: Requirement): this {
    if (this.violations.length < MAX_VIOLATIONS_KEPT) this.violations.push({ exchange, pointer, received, requirement });
    else this.violationsCut += 1;
    return this;
  }

  /** True once no further violation would be kept: callers may skip describing one. */
  get isFull(): boolean {
    return this.violations.length >= MAX_VIOLATIONS_KEPT;
  }

  /** Counts a violation that is not kept. */
  cut(): this {
    this.violationsCut += 1;
    return this;
  }

  cannotEvaluate(exchange: Exchange, reason: string): this {
    this.unevaluable.push({ exchange, reason });
    return this;
  }

  observe(observations: unknown): this {
    this.observations = observations;
    return this;
  }

  /** Takes over what another check of the same clause found (the schema findings of a contract). */
  absorb(found: ClauseCheck): this {
    this.instances += found.instances;
    for (const v of found.violations) this.violate(v.exchange, v.pointer, v.received, v.requirement);
    this.violationsCut += found.violationsCut;
    this.unevaluable.push(...found.unevaluable);
    return this;
  }

  crashed(error: unknown): this {
    this.crash = `the check of ${this.clause} broke: ${error instanceof Error ? error.message : String(error)}`;
    return this;
  }

  get violationCount(): number {
    return this.violations.length + this.violationsCut;
  }

  // A violation outweighs an unreadable response: what was read already shows the target is wrong.
  get outcome(): Outcome {
    if (this.crash !== undefined) return 'errored';
    if (this.violationCount > 0) return 'failed';
    if (this.unevaluable.length > 0) return 'errored';
    return this.instances > 0 ? 'passed' : 'not-exercised';
  }
}
