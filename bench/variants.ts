// Servers the benchmarks need beside the reference, built from the reference server's own transforms.
import { FAULTS, compose, rewrite, type Fault } from '../reference-server/variants/index.ts';
import type { Variant } from '../reference-server/server.ts';

// Faults that break distinct clauses and leave each other's answers readable, so that together they fail
// 29 of the 44 clauses and error none (chosen by judging their composition clause by clause).
const COMPOSED_FAULTS = [
  'viewer-let-through-on-tokens',
  '403-served-as-html',
  '401-body-not-json',
  'user-id-fractional',
  'token-enabled-as-string',
  'role-id-as-string',
  'user-email-null',
  'invalid-token-accepted',
  'group-owner-without-name',
  'projects-list-without-version',
  'token-name-null',
  'project-updated-at-impossible-day',
  'expired-token-enabled',
  'project-created-at-null',
  'project-health-above-100',
  'token-null-url-left-out',
  'user-owner-without-name',
  'archived-true-served-as-html',
  'role-without-type',
  'projects-served-as-html',
  'role-name-null',
  'user-seen-at-without-zone',
  'token-served-as-html',
  'token-created-at-without-zone',
  'project-mode-outside-list',
  'project-without-name',
];

function fault(name: string): Fault {
  const found = FAULTS.find((f) => f.name === name);
  if (!found) throw new Error(`reference-server/variants has no fault named ${name}`);
  return found;
}

/** Many clauses failed at once: what each failing clause costs a run. */
export const MANY_FAILURES: Variant = {
  name: 'many-failures',
  description: `${COMPOSED_FAULTS.length} faults at once, each breaking its own clauses`,
  transform: compose(...COMPOSED_FAULTS.map((name) => fault(name).transform)),
};

export const MANY_PROJECTS = 'many-projects';

/** The plain and archived=false lists replaced by `listText` (serialised once: the bench times the suite, not this server). */
export function manyProjects(listText: string, projects: number): Variant {
  return {
    name: MANY_PROJECTS,
    description: `serves ${projects} active projects`,
    transform: rewrite({ operation: 'projects', status: 200, archived: [null, 'false'] }, (response) => ({ ...response, body: listText, raw: true })),
  };
}

/** A target of a fleet that breaks three clauses and no other: a few of these make the fleet's failing tenants. */
export const THREE_FAILURES: Variant = {
  name: 'three-failures',
  description: 'three faults at once, each breaking its own clause',
  transform: compose(...['project-health-above-100', 'group-owner-without-name', 'token-name-null'].map((name) => fault(name).transform)),
};
