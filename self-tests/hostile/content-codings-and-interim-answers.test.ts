import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestLog } from '../../harness/evidence/request-log.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import {
  DEADLINE_SLACK_MS,
  expectRun,
  faithfulAnswer,
  QUICK_TIMEOUTS,
  reasonOf,
  runAgainst,
  RUN_BOUND_MS,
  serveHttp,
  withServer,
  writeAnswer,
} from '../support/hostile-servers.ts';
import { judgeAgainst } from '../support/judge-against.ts';
import { brokenContentCodings, interimAnswersFirst, unaskedTransferCoding } from '../support/transport-servers.ts';

// Issue 12, transport: a deadline that holds. Broken content codings and a trickling body end each
// request within CONFORMANCE_TIMEOUT_MS with its cause, never the run at its own timeout; interim
// answers before the real one leave a valid target valid. The codings are a whole run of the engine, whose
// request log and durations only a run shows (in this process; the command carries the same for a tenant of
// self-tests/suite/fleet-run.test.ts); the interim answers are judged.

const SELECTED = ['projects.response.json', 'projects.archived.accepted', 'signup-token.response.json', 'auth.projects.missing-header'];

test('wrong or corrupt content codings and a trickling body end each request promptly, naming the request and the cause', async () => {
  await withServer(brokenContentCodings(), async (server) => {
    const run = await runAgainst(server.url, SELECTED);
    expectRun(run, 'error', {
      'projects.response.json': 'errored',
      'projects.archived.accepted': 'errored',
      'signup-token.response.json': 'errored',
      'auth.projects.missing-header': 'passed',
    });
    expect(run.report?.completed).toBe(true);
    // The trickling body costs one CONFORMANCE_TIMEOUT_MS (1500 ms), not the run's ten minutes.
    expect(run.durationMs).toBeLessThan(RUN_BOUND_MS);
    expect(reasonOf(run, 'projects.response.json')).toContain(
      'GET /api/admin/projects → 200: the body is labelled Content-Encoding: gzip but cannot be decoded as gzip (incorrect header check)',
    );
    expect(reasonOf(run, 'signup-token.response.json')).toContain(
      'GET /api/admin/invite-link/tokens/$SIGNUP_TOKEN_1 → 200: the body is labelled Content-Encoding: br but cannot be decoded as br',
    );

    const log = JSON.parse(readFileSync(path.join(run.reportDir, 'requests.json'), 'utf8')) as RequestLog;
    const failureOf = (p: string) => log.requests.find((r) => r.credential === 'admin' && r.path === p)?.failure;
    expect(failureOf('/api/admin/invite-link/tokens/$SIGNUP_TOKEN_2')).toBe(
      'the body was still arriving 1500 ms after the request (CONFORMANCE_TIMEOUT_MS); reading stopped',
    );
    expect(failureOf('/api/admin/projects?archived=true')).toBe(
      'the body is labelled Content-Encoding: gzip but cannot be decoded as gzip (unexpected end of file)',
    );
    expect(failureOf('/api/admin/projects?archived=false')).toBe(
      'the body is labelled Content-Encoding: "x-zebra", a coding the suite cannot decode (it asks for gzip, deflate, br)',
    );
    // Correctly gzipped answers are read as any other.
    expect(log.requests.filter((r) => r.failure === undefined).length).toBeGreaterThan(5);
    // Each within its deadline (CONFORMANCE_TIMEOUT_MS, 1500 ms here), with a busy machine's slack.
    for (const request of log.requests) expect(request.durationMs).toBeLessThan(Number(QUICK_TIMEOUTS.CONFORMANCE_TIMEOUT_MS) + DEADLINE_SLACK_MS);
  });
});

test('100 Continue, 102 Processing and 103 Early Hints before every answer leave a faithful target passing', async () => {
  await withServer(interimAnswersFirst(), async (server) => {
    const judged = await judgeAgainst(server.url);
    expect(judged.statuses).toMatchObject(Object.fromEntries(SELECTED.map((id) => [id, 'passed'])));
    // Every clause of the catalogue is judged here, and none is violated or left without a verdict.
    const unmet = Object.entries(judged.statuses).filter(([, status]) => status === 'failed' || status === 'errored');
    expect(unmet).toEqual([]);
    expect(server.seen.length).toBeGreaterThan(10);
  });
});

test('a content coding that quotes the token past the words the suite quotes of it is named with the token replaced, no part of it left', async () => {
  // The coding's name puts the token where quoting a name of 80 characters would cut it.
  const server = serveHttp((req, res) => {
    const answer = faithfulAnswer(req);
    const headers: Record<string, string> = { ...answer.headers };
    if (req.url === '/api/admin/projects') headers['content-encoding'] = `${'y'.repeat(60)}${req.headers.authorization}`;
    writeAnswer(res, answer.status, headers, Buffer.from(JSON.stringify(answer.body)));
  });
  await withServer(server, async ({ url }) => {
    const reason = reasonOf(await judgeAgainst(url), 'projects.response.json');
    expect(reason).toContain(`the body is labelled Content-Encoding: "${'y'.repeat(60)}$TOKEN", a coding the suite cannot decode`);
    expect(reason).not.toContain(REFERENCE_FIXTURES.adminToken.slice(0, 8));
  });
});

// The suite sends no TE: a target that still applies a transfer coding other than chunked sent a body the
// suite cannot read as it is, which is no answer to judge, rather than an answer that is not JSON.
test('a transfer coding the suite did not ask for (Transfer-Encoding: gzip, chunked) errors the request, naming the coding, and fails no clause', async () => {
  await withServer(unaskedTransferCoding(), async (server) => {
    const judged = await judgeAgainst(server.url);
    expect(judged.statuses['projects.response.json']).toBe('errored');
    expect(judged.reasons['projects.response.json']).toContain(
      'the answer is sent with Transfer-Encoding: "gzip, chunked"; the suite asks for no transfer coding but chunked (it sends no TE), and reads no other',
    );
    expect(Object.entries(judged.statuses).filter(([, status]) => status === 'failed')).toEqual([]);
  });
});
