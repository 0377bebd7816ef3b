import { loadChecks } from '../../checks/index.ts';
import { expect, test } from '@playwright/test';
import type { Exchange } from '../../harness/transport/exchange.ts';
import { judge } from '../../harness/judging/judge.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

// Issue 12, transport: a 304 is not a redirect. The suite sends no conditional request, so a 304 is an
// answer about a cached copy that something between the suite and the target gave: no verdict on the
// data or on authentication, and never "a redirect to nowhere".

/** The reference's answers, with the admin projects list and the projects request without a header answered 304 instead. */
function withNotModified(): ReturnType<typeof judge> {
  const recording = recordInProcess(undefined);
  const notModified = (e: Exchange) => e.request.path === '/api/admin/projects' && (e.request.credential === 'admin' || e.request.credential === 'none');
  for (const exchange of recording.exchanges.filter(notModified))
    Object.assign(exchange, { status: 304, contentType: undefined, location: undefined, bodyText: '', bodyBytes: 0 });
  return judge(recording, REFERENCE_INPUT, loadChecks());
}

test('a 304 leaves the clauses that needed the answer errored, saying what a 304 is, never a redirect', () => {
  const judged = withNotModified();
  const outcome = (id: string) => judged.find((c) => c.clause === id);
  for (const id of ['projects.list.required', 'projects.response.json', 'auth.projects.missing-header']) {
    expect(outcome(id)?.outcome, id).toBe('errored');
  }
  for (const id of ['projects.list.required', 'auth.projects.missing-header']) {
    const reasons = outcome(id)!.erroredAnswers.map((u) => u.reason);
    expect(reasons).toContain(
      'answered 304 Not Modified, which only answers a conditional request, and the suite sends none (no If-None-Match, no If-Modified-Since): a cache between the suite and the target may be answering for it',
    );
    expect(reasons.join('\n')).not.toContain('redirect');
  }
  // The answers that were not 304 are judged as ever.
  expect(outcome('auth.projects.invalid-token')?.outcome).toBe('passed');
  expect(judged.filter((c) => c.outcome === 'failed')).toEqual([]);
});
