import { clause, test, requireReadable, type Fetched } from '../../harness/fixtures.ts';
import { observeFields } from '../../harness/observations.ts';
import { ClauseCheck } from '../../harness/verdict.ts';

// Behaviour the document leaves open, reported as observations and never judged.

function projectIds(answer: Fetched): string[] | undefined {
  if (!answer.readable.ok) return undefined;
  const projects = (answer.readable.body as { projects?: unknown })?.projects;
  return Array.isArray(projects) ? projects.map((p) => String((p as { id?: unknown })?.id)) : undefined;
}

const only = (ids: string[] | undefined, others: string[] | undefined) => ids?.filter((id) => !others?.includes(id)).slice(0, 50);

test(...clause('projects.observe.archived-effect'), async ({ projectLists, judge }) => {
  const check = new ClauseCheck('projects.observe.archived-effect');
  const { plain, archivedTrue, archivedFalse } = projectLists;
  requireReadable(check, [plain, archivedTrue, archivedFalse]);
  const [none, yes, no] = [plain, archivedTrue, archivedFalse].map(projectIds);
  check.count().observe({
    counts: { withoutParameter: none?.length, archivedTrue: yes?.length, archivedFalse: no?.length },
    onlyWithArchivedTrue: only(yes, none),
    missingWithArchivedTrue: only(none, yes),
    archivedFalseSameAsWithout: none !== undefined && no !== undefined && none.join() === no.join(),
  });
  await judge(check);
});

test(...clause('projects.observe.unknown-fields'), async ({ projectLists, judge }) => {
  const check = new ClauseCheck('projects.observe.unknown-fields');
  const bodies = requireReadable(check, [projectLists.plain]).map((r) => r.body);
  await judge(check.count(bodies.length).observe({ fields: observeFields('projects', bodies).unknown }));
});

test(...clause('projects.observe.deprecated-fields'), async ({ projectLists, judge }) => {
  const check = new ClauseCheck('projects.observe.deprecated-fields');
  const bodies = requireReadable(check, [projectLists.plain]).map((r) => r.body);
  await judge(check.count(bodies.length).observe({ fields: observeFields('projects', bodies).deprecated }));
});

test(...clause('projects.observe.version'), async ({ projectLists, judge }) => {
  const check = new ClauseCheck('projects.observe.version');
  const bodies = requireReadable(check, [projectLists.plain]).map((r) => r.body);
  await judge(check.count(bodies.length).observe({ version: (bodies[0] as { version?: unknown } | undefined)?.version }));
});
