import type { Redactor } from './redact.ts';
import { curlLine } from './evidence.ts';
import { clauseById } from './catalogue.ts';
import type { ClauseCheck, Unevaluable, Violation } from './verdict.ts';

/** How many violations a failure message spells out; the report holds the rest. */
const SHOWN = 5;

function requestLine(v: Violation | Unevaluable, redact: Redactor): string {
  const status = v.exchange.status === undefined ? 'no answer' : String(v.exchange.status);
  return `${v.exchange.request.method} ${redact(v.exchange.request.path)} → ${status}`;
}

function header(check: ClauseCheck): string {
  const clause = clauseById(check.clause);
  return `clause ${clause.id} (section ${clause.section}, ${clause.level}): ${clause.title}`;
}

/** The one place where a clause's violations become words: received, required, how to reproduce. */
export function describeViolations(check: ClauseCheck, redact: Redactor): string {
  // The matcher name on the second line lets JUnit readers class this as an assertion failure, not an error.
  const lines = [header(check), `expect(clause).toConform(): ${check.violationCount} violation(s) in ${check.instances} checked:`];
  for (const v of check.violations.slice(0, SHOWN)) {
    lines.push(`  ${requestLine(v, redact)}`);
    lines.push(`    at ${v.pointer || '(response)'}: received ${redact(v.received)}; the document requires ${v.required}`);
    lines.push(`    reproduce: ${curlLine(v.exchange, redact)}`);
  }
  const rest = check.violationCount - Math.min(SHOWN, check.violations.length);
  if (rest > 0) lines.push(`  … and ${rest} more (see conformance.json)`);
  return lines.join('\n');
}

export function describeUnevaluable(check: ClauseCheck, redact: Redactor): string {
  const lines = [`could not evaluate ${header(check)}`];
  for (const u of check.unevaluable.slice(0, SHOWN)) {
    lines.push(`  ${requestLine(u, redact)}: ${redact(u.reason)}`);
    lines.push(`    reproduce: ${curlLine(u.exchange, redact)}`);
  }
  return lines.join('\n');
}
