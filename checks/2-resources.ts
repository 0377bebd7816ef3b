import type { Check } from '../harness/judging/judge.ts';

// Sections 2.1 to 2.6: the objects of both operations. Each body is validated once against its contract
// (contracts/public-signup-token.schema.json, contracts/projects.schema.json) and each error goes to the
// clause the contract's `clauses` annotation names for it.

export const RESOURCE_CHECKS: Check[] = [
  // 2.1 Public signup token
  { clause: 'signup-token.token.required', schema: 'public-signup-token' },
  { clause: 'signup-token.token.types', schema: 'public-signup-token' },
  { clause: 'signup-token.token.nullability', schema: 'public-signup-token' },
  { clause: 'signup-token.token.date-time', schema: 'public-signup-token' },
  // 2.2 User
  { clause: 'signup-token.user.required', schema: 'public-signup-token' },
  { clause: 'signup-token.user.types', schema: 'public-signup-token' },
  { clause: 'signup-token.user.nullability', schema: 'public-signup-token' },
  { clause: 'signup-token.user.date-time', schema: 'public-signup-token' },
  // 2.3 Role
  { clause: 'signup-token.role.required', schema: 'public-signup-token' },
  { clause: 'signup-token.role.types', schema: 'public-signup-token' },
  { clause: 'signup-token.role.nullability', schema: 'public-signup-token' },
  // 2.4 Projects list
  { clause: 'projects.list.required', schema: 'projects' },
  { clause: 'projects.list.types', schema: 'projects' },
  // 2.5 Project
  { clause: 'projects.project.required', schema: 'projects' },
  { clause: 'projects.project.types', schema: 'projects' },
  { clause: 'projects.project.nullability', schema: 'projects' },
  { clause: 'projects.project.date-time', schema: 'projects' },
  { clause: 'projects.project.health-range', schema: 'projects' },
  { clause: 'projects.project.owners-not-empty', schema: 'projects' },
  // 2.6 Owner
  { clause: 'projects.owner.kind', schema: 'projects' },
  { clause: 'projects.owner.user', schema: 'projects' },
  { clause: 'projects.owner.group', schema: 'projects' },
];
