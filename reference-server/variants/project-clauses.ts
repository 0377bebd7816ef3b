/** The clauses judged on each project of a projects list: a list with no project leaves them not exercised. */
export const PROJECT_CLAUSES = [
  'projects.project.required',
  'projects.project.types',
  'projects.project.nullability',
  'projects.project.date-time',
  'projects.project.health-range',
  'projects.project.owners-not-empty',
];

/** The clauses judged on each owner of a project: a list with no owner leaves them not exercised. */
export const OWNER_CLAUSES = ['projects.owner.kind', 'projects.owner.user', 'projects.owner.group'];
