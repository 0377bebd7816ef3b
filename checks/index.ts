import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { schemaClauses } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';
import { RESOURCE_CHECKS } from './2-resources.ts';
import { FIELD_OBSERVATIONS } from './2-fields-observed.ts';
import { STATE_CHECKS } from './3-states.ts';
import { DESCRIPTION_OBSERVATIONS } from './4-description-drift.ts';
import { SIGNUP_TOKEN_CHECKS } from './4.1-signup-token.ts';
import { PROJECTS_CHECKS } from './4.2-projects.ts';
import { AUTHENTICATION_CHECKS } from './5-authentication.ts';
import { ERROR_CHECKS } from './7-errors.ts';
import { VERSIONING_CHECKS } from './9-versioning.ts';

export type { Check };

/** Every check, in the order of the document's sections. */
export const CHECKS: Check[] = [
  ...RESOURCE_CHECKS,
  ...FIELD_OBSERVATIONS,
  ...STATE_CHECKS,
  ...SIGNUP_TOKEN_CHECKS,
  ...PROJECTS_CHECKS,
  ...DESCRIPTION_OBSERVATIONS,
  ...AUTHENTICATION_CHECKS,
  ...ERROR_CHECKS,
  ...VERSIONING_CHECKS,
];

/**
 * Where the checks, the catalogue and the contracts' annotations disagree, one line each. The checks of section 2
 * are the clauses the contracts name (checks/2-resources.ts): a contract that names a clause the catalogue lacks, or
 * one a section's file also checks, is caught here as any other check is.
 */
export function checkProblems(checks: Check[] = CHECKS): string[] {
  const problems: string[] = [];
  const catalogue = new Set(loadCatalogue().map((c) => c.id));
  const ids = checks.map((c) => c.clause);
  for (const id of ids.filter((id, i) => ids.indexOf(id) !== i)) problems.push(`${id} has two checks`);
  for (const c of checks.filter((c) => !catalogue.has(c.clause)))
    problems.push(
      'schema' in c
        ? `${c.clause} is read from contracts/${c.schema}.schema.json but is not in contracts/clauses.yaml`
        : `${c.clause} has a check but is not in contracts/clauses.yaml`,
    );
  for (const id of [...catalogue].filter((id) => !ids.includes(id)))
    problems.push(`${id} is in contracts/clauses.yaml but no check in checks/ judges it and no contract names it`);
  for (const name of ['public-signup-token', 'projects'] as const) {
    const fromSchema = checks.filter((c) => 'schema' in c && c.schema === name).map((c) => c.clause);
    const named = schemaClauses(name);
    for (const id of named.filter((id) => !fromSchema.includes(id))) problems.push(`contracts/${name}.schema.json names ${id}, which no check reads from it`);
    for (const id of fromSchema.filter((id) => !named.includes(id))) problems.push(`${id} is read from contracts/${name}.schema.json, which never names it`);
  }
  return problems;
}

/** The checks, once they agree with the catalogue and the contracts: a mismatch stops the suite at load time. */
export function loadChecks(): Check[] {
  const problems = checkProblems();
  if (problems.length > 0) throw new Error(`the checks do not match the catalogue:\n  ${problems.join('\n  ')}`);
  return CHECKS;
}
