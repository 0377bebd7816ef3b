import { clause, test } from '../../harness/fixtures.ts';

// Sections 2.4 (projects list), 2.5 (project) and 2.6 (owner): each list is validated once against
// contracts/projects.schema.json and each error is sorted into the clause it breaks.

for (const id of [
  'projects.list.required', 'projects.list.types',
  'projects.project.required', 'projects.project.types', 'projects.project.nullability', 'projects.project.date-time',
  'projects.project.health-range', 'projects.project.owners-not-empty',
  'projects.owner.kind', 'projects.owner.user', 'projects.owner.group',
]) {
  test(...clause(id), async ({ projectLists, judge }) => {
    await judge(projectLists.schema.get(id)!);
  });
}
