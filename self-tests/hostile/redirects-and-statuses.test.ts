import { expect, test } from '@playwright/test';
import { answeringWith, expectRun, reasonOf, recordingReference, redirectingTo, runAgainst, withServer } from '../support/hostile-servers.ts';
import { judgeAgainst } from '../support/judge-against.ts';

// Issue 4, part 1: redirects are reported and never followed; a server error is no verdict; a status
// the document does not list fails the authentication clauses; none of them is ever passed. Each target
// is judged in this process over the real transport; one run of the engine proves the exit code.

// A redirect for every request (http where only https answers, a login page) says the base URL is wrong: the run
// stops with one line, never a violation of the deployment's.
test('a redirect to another origin is never followed, the authorization header never reaches that origin, and the run stops asking about the base URL', async () => {
  await withServer(recordingReference(), (elsewhere) =>
    withServer(redirectingTo(elsewhere.url), async (redirecting) => {
      const judged = await judgeAgainst(redirecting.url);
      expect(new Set(Object.values(judged.statuses))).toEqual(new Set(['errored']));
      expect(judged.error).toBe(
        `conformance run stopped: this does not look like the admin API at ${redirecting.url}: every request was answered with a redirect (302 to ${elsewhere.url}/api/admin/projects), which the suite never follows; check the path: the base URL is everything before /api/admin, such as https://unleash.example.com or http://host:4242/unleash, and whether it takes https://`,
      );
      expect(redirecting.seen.some((r) => r.authorization !== undefined)).toBe(true);
      expect(elsewhere.seen).toEqual([]);
    }),
  );
});

test('a 500 on every request gives no verdict: the data and the authentication clauses are errored, exit code 3', async () => {
  await withServer(answeringWith(500), async (server) => {
    const run = await runAgainst(server.url, ['projects.list.required', 'auth.projects.missing-header', 'error.projects.401']);
    expectRun(run, 'error', { 'projects.list.required': 'errored', 'auth.projects.missing-header': 'errored', 'error.projects.401': 'errored' });
    expect(reasonOf(run, 'projects.list.required')).toContain('answered 500 where the document gives 200');
    expect(reasonOf(run, 'auth.projects.missing-header')).toContain('answered 500, a server error');
  });
});

test('a 503 to one request errors only the clauses that needed that answer', async () => {
  const noHeaderProjects = (req: { url?: string; headers: { authorization?: string } }) =>
    req.url === '/api/admin/projects' && req.headers.authorization === undefined;
  await withServer(answeringWith(503, noHeaderProjects), async (server) => {
    const judged = await judgeAgainst(server.url);
    expect(judged.statuses).toMatchObject({
      'projects.list.required': 'passed',
      'auth.projects.missing-header': 'errored',
      'auth.projects.invalid-token': 'passed',
      'error.projects.401': 'errored',
    });
    expect(reasonOf(judged, 'auth.projects.missing-header')).toContain('GET /api/admin/projects → 503: answered 503, a server error');
  });
});

test('a status the document does not list (418) fails the authentication clauses and errors the data clauses', async () => {
  await withServer(answeringWith(418), async (server) => {
    const judged = await judgeAgainst(server.url);
    expect(judged.statuses).toMatchObject({
      'projects.list.required': 'errored',
      'auth.projects.missing-header': 'failed',
      'auth.signup-token.invalid-token': 'failed',
    });
    expect(reasonOf(judged, 'projects.list.required')).toContain('answered 418 where the document gives 200');
    expect(reasonOf(judged, 'auth.projects.missing-header')).toContain('received status 418; the document requires status 401');
  });
});
