// What reading the lists costs without the suite: the plan's three admin requests to /api/admin/projects,
// sent at once as the judging sends them, each body fetched and given to JSON.parse, nothing else.
import { PROJECTS_PATH } from '../harness/recording/plan.ts';
import { REFERENCE_FIXTURES } from '../reference-server/fixtures.ts';

const LIST_PATHS = [PROJECTS_PATH, `${PROJECTS_PATH}?archived=true`, `${PROJECTS_PATH}?archived=false`];

/** Wall time of one bare fetch + JSON.parse of every list the run requests, in milliseconds. */
export async function bareFetchAndParse(baseUrl: string): Promise<number> {
  const started = performance.now();
  await Promise.all(
    LIST_PATHS.map(async (path) => {
      const response = await fetch(baseUrl + path, { headers: { authorization: REFERENCE_FIXTURES.adminToken } });
      JSON.parse(await response.text());
    }),
  );
  return performance.now() - started;
}
