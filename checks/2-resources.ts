import type { Check } from '../harness/judging/judge.ts';
import { schemaClauses } from '../harness/judging/violations.ts';

// Sections 2.1 to 2.6: the objects of both operations. Each body is validated once against its contract
// (contracts/public-signup-token.schema.json, contracts/projects.schema.json) and each error goes to the
// clause the contract's `clauses` annotation names for it. The clauses are those the contracts name, in the
// order they name them (2.1 token, 2.2 user, 2.3 role; 2.4 list, 2.5 project, 2.6 owner), so that a clause
// of section 2 is written in the catalogue and its contract only; checks/index.ts holds both to each other.

const CONTRACTS = ['public-signup-token', 'projects'] as const;

export const RESOURCE_CHECKS: Check[] = CONTRACTS.flatMap((schema) => schemaClauses(schema).map((clause): Check => ({ clause, schema })));
