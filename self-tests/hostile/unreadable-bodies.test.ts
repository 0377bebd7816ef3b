import { expect, test } from '@playwright/test';
import {
  byteOrderMark,
  deeplyNestedErrorObject,
  deeplyNestedJson,
  htmlLoginPage,
  hugeBody,
  invalidUtf8,
  expectRun,
  reasonOf,
  runAgainst,
  truncatedJson,
  withServer,
  wrongContentType,
} from '../support/hostile-servers.ts';
import { clauseWords, judgeAgainst } from '../support/judge-against.ts';

// Issue 4, part 1: bodies the suite cannot read. The JSON clause fails for a 200 that is not JSON;
// the clauses that needed the body are errored; none of them is ever passed. Each target is judged in
// this process over the real transport; one run of the engine proves the exit code and the report agree.

// A page for every request, those without a token too, is a web UI or a login page: the base URL, not the target,
// is what is wrong (a path prefix left out). An API that serves a page for its list alone is judged: see
// self-tests/harness/preflight.test.ts.
test('an HTML login page answered 200 to every request stops the run with one line about the path, no verdict, in the report as in process', async () => {
  await withServer(htmlLoginPage(), async (server) => {
    const selected = ['projects.response.json', 'projects.list.required', 'auth.projects.missing-header'];
    const run = await runAgainst(server.url, selected);
    expectRun(run, 'error', {
      'projects.response.json': 'errored',
      'projects.list.required': 'errored',
      'auth.projects.missing-header': 'errored',
    });
    expect(run.report?.summary.failed).toBe(0);
    const line = `conformance run stopped: this does not look like the admin API at ${server.url}: every request was answered 200 text/html; charset=utf-8, no JSON, those without a token too`;
    expect(run.report?.errors[0]).toContain(line);
    // The report says, word for word, what the judge in this process says of the same target.
    expect(clauseWords(await judgeAgainst(server.url), selected)).toEqual(clauseWords(run, selected));
  });
});

test('JSON labelled text/plain fails the JSON clause and the error-answer clause, while the fields are still judged', async () => {
  await withServer(wrongContentType(), async (server) => {
    const judged = await judgeAgainst(server.url);
    expect(judged.statuses).toMatchObject({ 'projects.response.json': 'failed', 'projects.list.required': 'passed', 'error.projects.401': 'failed' });
    expect(reasonOf(judged, 'projects.response.json')).toContain(
      'received content-type "text/plain; charset=utf-8"; the document requires content-type application/json',
    );
    expect(reasonOf(judged, 'error.projects.401')).toContain('content-type "text/plain; charset=utf-8"');
  });
});

test('truncated JSON fails the JSON clauses and errors the clauses that needed the body', async () => {
  await withServer(truncatedJson(), async (server) => {
    const judged = await judgeAgainst(server.url);
    expect(judged.statuses).toMatchObject({ 'projects.response.json': 'failed', 'projects.list.required': 'errored', 'error.projects.401': 'failed' });
    for (const id of ['projects.response.json', 'projects.list.required', 'error.projects.401'])
      expect(reasonOf(judged, id)).toMatch(/the body is not JSON: .+ at line \d+, column \d+/);
  });
});

// Bytes that are no JSON text as RFC 8259 has it, though a lenient reader would take them: each fails the
// JSON clause and errors the clauses that needed the body, never passes them.
for (const { title, serve, reason } of [
  { title: 'a body that is not valid UTF-8', serve: invalidUtf8, reason: 'the body is not valid UTF-8' },
  { title: 'a body led by a byte order mark', serve: byteOrderMark, reason: 'unexpected byte order mark' },
]) {
  test(`${title} fails the JSON clause and errors the clauses that needed it`, async () => {
    await withServer(serve(), async (server) => {
      const judged = await judgeAgainst(server.url);
      expect(judged.statuses).toMatchObject({
        'projects.response.json': 'failed',
        'projects.list.required': 'errored',
        'auth.projects.missing-header': 'passed',
      });
      for (const id of ['projects.response.json', 'projects.list.required']) expect(reasonOf(judged, id)).toContain(reason);
    });
  });
}

test('JSON nested a hundred thousand levels deep is errored with the limit named, not a stack overflow', async () => {
  await withServer(deeplyNestedJson(100_000), async (server) => {
    const judged = await judgeAgainst(server.url);
    expect(judged.statuses).toMatchObject({
      'projects.response.json': 'errored',
      'projects.list.required': 'errored',
      'projects.observe.unknown-fields': 'errored',
      'auth.projects.missing-header': 'passed',
    });
    expect(judged.completed).toBe(true);
    for (const id of ['projects.response.json', 'projects.list.required', 'projects.observe.unknown-fields']) {
      expect(reasonOf(judged, id)).toContain('the JSON body nests deeper than 512 levels');
    }
    expect(Object.values(judged.reasons).join('\n')).not.toContain('Maximum call stack size exceeded');
  });
});

test('an error object with a field nested deeper than the suite reads is errored, not failed: the limit is the suite’s, not the document’s', async () => {
  await withServer(deeplyNestedErrorObject(600), async (server) => {
    const judged = await judgeAgainst(server.url);
    expect(judged.statuses).toMatchObject({
      'error.signup-token.401': 'errored',
      'error.projects.401': 'errored',
      'auth.signup-token.missing-header': 'passed',
      'auth.projects.missing-header': 'passed',
    });
    for (const id of ['error.signup-token.401', 'error.projects.401']) expect(reasonOf(judged, id)).toContain('the JSON body nests deeper than 512 levels');
  });
});

for (const declareLength of [false, true]) {
  const how = declareLength ? 'announced by content-length' : 'streamed without a length';
  test(`a body larger than CONFORMANCE_MAX_BODY_BYTES, ${how}, is cut off and errored`, async () => {
    await withServer(hugeBody({ declareLength }), async (server) => {
      const judged = await judgeAgainst(server.url, { CONFORMANCE_MAX_BODY_BYTES: '65536' });
      expect(judged.statuses).toMatchObject({
        'projects.response.json': 'errored',
        'projects.list.required': 'errored',
        'auth.projects.missing-header': 'passed',
      });
      for (const id of ['projects.response.json', 'projects.list.required']) {
        expect(reasonOf(judged, id)).toContain('the body is larger than 65536 bytes (CONFORMANCE_MAX_BODY_BYTES); reading stopped');
      }
      // The server stops when the client goes away: far less than the 256 MiB it would send to a reader.
      expect(server.sentBytes()).toBeLessThan(32 * 1024 * 1024);
    });
  });
}
