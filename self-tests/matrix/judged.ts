import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { judge } from '../../harness/judging/judge.ts';
import { requirementText, type ClauseCheck } from '../../harness/judging/violations.ts';
import type { Variant } from '../../reference-server/server.ts';
import { checksOnce, REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

/** Each outcome and the clauses that had it, sorted: what a row of the matrix is compared with. */
export interface Outcomes {
  passed: string[];
  failed: string[];
  errored: string[];
  notExercised: string[];
}

function outcomesOf(checks: ClauseCheck[]): Outcomes {
  const having = (outcome: string) =>
    checks
      .filter((c) => c.outcome === outcome)
      .map((c) => c.clause)
      .sort();
  return { passed: having('passed'), failed: having('failed'), errored: having('errored'), notExercised: having('not-exercised') };
}

/** One line per clause that did not pass, with its first violation or reason, to show beside a row that differs. */
function explain(checks: ClauseCheck[]): string {
  return checks
    .filter((c) => c.outcome !== 'passed')
    .map((c) => {
      const v = c.violations[0];
      const u = c.erroredAnswers[0];
      const why =
        c.crash ?? (v ? `at ${v.pointer}: received ${v.received.slice(0, 120)}; the document requires ${requirementText(v.requirement)}` : u ? u.reason : '');
      return `${c.clause}: ${c.outcome}: ${why}`;
    })
    .join('\n');
}

/** The judge's outcomes on a variant's answers, for every clause and for the MUST clauses alone. */
export function judgedVariant(variant: Variant | undefined): { all: Outcomes; must: Outcomes; explain(): string } {
  const must = new Set(
    loadCatalogue()
      .filter((c) => c.level === 'MUST')
      .map((c) => c.id),
  );
  const checks = judge(recordInProcess(variant), REFERENCE_INPUT, checksOnce());
  return { all: outcomesOf(checks), must: outcomesOf(checks.filter((c) => must.has(c.clause))), explain: () => explain(checks) };
}
