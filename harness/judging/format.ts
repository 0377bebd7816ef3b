import type { Clause } from '../contracts/catalogue.ts';
import type { ClauseEvidence, ExchangeEvidence } from './evidence.ts';

/** How many violations a failure message spells out; the report holds the rest. */
const SHOWN = 5;

function requestLine(request: ExchangeEvidence): string {
  return `${request.method} ${request.path} → ${request.status ?? 'no answer'}`;
}

function header(clause: Clause): string {
  return `clause ${clause.id} (section ${clause.section}, ${clause.level}): ${clause.title}`;
}

/** The one place where a clause's violations become words: received, required, how to reproduce. */
export function describeViolations(clause: Clause, evidence: ClauseEvidence): string {
  const count = evidence.violations.length + evidence.violationsCut;
  // The matcher name on the second line lets JUnit readers class this as an assertion failure, not an error.
  const lines = [header(clause), `expect(clause).toConform(): ${count} violation(s) in ${evidence.instances} checked:`];
  for (const v of evidence.violations.slice(0, SHOWN)) {
    lines.push(`  ${requestLine(v.request)}`);
    lines.push(`    at ${v.pointer || '(response)'}: received ${v.received}; the document requires ${v.required}`);
    lines.push(`    reproduce: ${v.request.curl}`);
  }
  const rest = count - Math.min(SHOWN, evidence.violations.length);
  if (rest > 0) lines.push(`  … and ${rest} more (see conformance.json)`);
  return lines.join('\n');
}

export function describeUnevaluable(clause: Clause, evidence: ClauseEvidence, crash?: string): string {
  const lines = [`could not evaluate ${header(clause)}`];
  if (crash !== undefined) lines.push(`  ${crash}`);
  for (const u of evidence.unevaluable.slice(0, SHOWN)) {
    lines.push(`  ${requestLine(u.request)}: ${u.reason}`);
    lines.push(`    reproduce: ${u.request.curl}`);
  }
  return lines.join('\n');
}
