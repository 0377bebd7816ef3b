import type { ClauseStatus } from './counts.ts';
import type { ProfileStatus } from './claim.ts';
import type { ConformanceReport, Verdict } from './conformance-result.ts';

// One line of the run history (CONFORMANCE_HISTORY): one target's run, as a pure function of its report, the
// run's identity and its evidence bundle's digest. Its schema is history-line.schema.json, which every line read
// back is checked against (history-file.ts).

export const HISTORY_VERSION = 1;

export interface HistoryLine {
  historyVersion: typeof HISTORY_VERSION;
  /** The run's identity: CONFORMANCE_RUN_ID, the CI's own, or one made for the run. */
  run: string;
  startedAt: string;
  /** The judge: the suite, its contracts and the document's text, each by its version or digest. */
  suite: { version: string; contractsHash: string };
  document: string;
  /** The target, by name and base URL (never a credential). */
  target: { name: string; baseUrl: string };
  product?: { name: string; version?: string };
  /** The profiles claimed, and each profile's status. */
  claim: { profiles: string[]; status: Record<string, ProfileStatus> };
  verdict: Verdict;
  /** Each clause's outcome, by id. */
  clauses: Record<string, ClauseStatus>;
  /** The SHA-256 of the target's evidence bundle, when one was written. */
  bundle?: string;
}

/** A base URL as a history line keeps it: without user, password, query or fragment, which may hold a secret. */
export function bareUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** A target's run as its history line. */
export function historyLine(report: ConformanceReport, run: string, bundle: string | undefined): HistoryLine {
  return {
    historyVersion: HISTORY_VERSION,
    run,
    startedAt: report.startedAt,
    suite: { version: report.suite.version, contractsHash: report.suite.contractsHash },
    document: report.document.sha256,
    target: { name: report.target.name, baseUrl: bareUrl(report.target.baseUrl) },
    ...(report.product && { product: { name: report.product.name, ...(report.product.version !== undefined && { version: report.product.version }) } }),
    claim: { profiles: report.claim.profiles, status: Object.fromEntries(report.claim.byProfile.map((p) => [p.name, p.status])) },
    verdict: report.verdict,
    clauses: Object.fromEntries(report.clauses.map((c) => [c.id, c.status])),
    ...(bundle !== undefined && { bundle }),
  };
}

/** Whether two lines were judged by the same suite, contracts and text of the document. */
export const sameJudge = (a: HistoryLine, b: HistoryLine) =>
  a.suite.version === b.suite.version && a.suite.contractsHash === b.suite.contractsHash && a.document === b.document;
