import type { ConformanceReport } from './conformance-result.ts';
import { timeless } from './diff-evidence.ts';

// What a person needs of a fleet at a glance: the failures that many targets share, each once, with the
// targets that show it, and how old each target's result is. Pure functions of the targets' reports.

/** One way of failing, shared by the targets listed: the same clause, place, kind of requirement and product version. */
export interface FailureSignature {
  clause: string;
  title: string;
  /** Where in the answers, array positions as `*`: the tenth project failing is the first one's failure. */
  pointer: string;
  /** The kind of requirement broken (`schema.enum`, `expired-not-enabled`), where the reports name it. */
  kind?: string;
  /** What the document requires there, as the violation words it, its dates and times as `<date-time>` (a token's expiry, the request's moment differ between any two targets). */
  required: string;
  /** The product and version the targets state, or "product not stated". */
  product: string;
  targets: string[];
}

/** A product as a signature names it: two tenants on one version share their failures, on two versions they may not. */
export const productKey = (product: ConformanceReport['product']) =>
  product ? [product.name, product.version].filter(Boolean).join(' ') : 'product not stated';

/** Array positions in a JSON pointer as `*`. */
const general = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');

/** Each target's failures grouped by signature, the most widespread first, each target named once per signature. */
export function failureSignatures(reports: ConformanceReport[]): FailureSignature[] {
  const groups: SignatureGroups = new Map();
  for (const report of reports) addSignatures(groups, report);
  return sortedSignatures(groups);
}

/** Signatures being gathered, target by target, by their key. */
export type SignatureGroups = Map<string, FailureSignature>;

/** Adds one target's failures to the signatures gathered: a fleet's run adds each as its report is written. */
export function addSignatures(groups: SignatureGroups, report: Pick<ConformanceReport, 'clauses' | 'product' | 'target'>): void {
  for (const clause of report.clauses.filter((c) => c.status === 'failed')) {
    const violations = clause.evidence?.violations ?? [];
    // A failure with no violation in its evidence (a check's own words) is signed by its clause alone.
    const places = violations.length
      ? violations.map((v) => ({ pointer: general(v.pointer), kind: v.kind, required: timeless(v.required) }))
      : [{ pointer: '', kind: undefined, required: '' }];
    for (const { pointer, kind, required } of places) {
      const product = productKey(report.product);
      // The kind of requirement, where the report names it, groups failures whatever their words' parameters.
      const key = JSON.stringify([clause.id, pointer, kind ?? required, product]);
      const group: FailureSignature = groups.get(key) ?? { clause: clause.id, title: clause.title, pointer, kind, required, product, targets: [] };
      if (group.targets.at(-1) !== report.target.name) group.targets.push(report.target.name);
      groups.set(key, group);
    }
  }
}

/** The signatures gathered, the most widespread first. */
export const sortedSignatures = (groups: SignatureGroups): FailureSignature[] =>
  [...groups.values()].sort((a, b) => b.targets.length - a.targets.length || a.clause.localeCompare(b.clause) || a.pointer.localeCompare(b.pointer));

/** How long before `now` a result was taken, in whole minutes (never negative: clocks of two machines differ). */
export const ageMinutes = (startedAt: string, now: string) => Math.max(0, Math.floor((Date.parse(now) - Date.parse(startedAt)) / 60_000));

/** An age as a person reads it: minutes, hours or days. */
export function ageText(minutes: number): string {
  if (minutes < 120) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / (24 * 60))} d`;
}
