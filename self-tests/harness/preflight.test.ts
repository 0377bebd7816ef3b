import { expect, test } from '@playwright/test';
import { preflightProblem } from '../../harness/recording/preflight.ts';
import type { Recording } from '../../harness/recording/recording.ts';
import type { Exchange } from '../../harness/transport/exchange.ts';
import { FAULTS, VALID_VARIANTS } from '../../reference-server/variants/index.ts';
import { recordInProcess } from '../support/in-process.ts';

// A base URL that does not serve the admin API is no target to judge: the run stops with one line that says
// what it found and asks about the path, never a FAIL that blames the deployment for the address it was given.
// Every fault and valid variant of the reference target is the API, broken or not, and is judged.

const BASE = 'https://unleash.example.com/unleash';
const CHECK = 'check the path: the base URL is everything before /api/admin, such as https://unleash.example.com or http://host:4242/unleash';

/** The reference recording with every answer replaced by what `answer` gives for the request's credential. */
function answeredWith(answer: (credential: string) => Partial<Exchange>): Recording {
  const recording = recordInProcess(undefined);
  const exchanges = recording.exchanges.map((e) => ({ ...e, contentType: undefined, location: undefined, ...answer(e.request.credential) }));
  return { ...recording, exchanges };
}

const page = { status: 200, contentType: 'text/html; charset=utf-8', bodyText: '<!doctype html><title>Unleash</title>' };
const jsonError = (status: number) => ({ status, contentType: 'application/json', bodyText: '{"name":"NotFoundError","message":"no such path"}' });

const CASES: { description: string; recording: Recording; problem: string }[] = [
  {
    description: 'a web UI that answers every path with its page, the requests without a token too (a base URL without /unleash)',
    recording: answeredWith(() => page),
    problem: `this does not look like the admin API at ${BASE}: every request was answered 200 text/html; charset=utf-8, no JSON, those without a token too; ${CHECK}`,
  },
  {
    description: 'a path prefix too many (…/api): the admin token answered 404, the others 401 by the authentication in front',
    recording: answeredWith((credential) => (credential === 'admin' ? jsonError(404) : jsonError(401))),
    problem: `this does not look like the admin API at ${BASE}: every request with the admin token was answered 404; ${CHECK}`,
  },
  {
    description: 'every request redirected (http where only https answers, or a login page)',
    recording: answeredWith(() => ({ status: 301, location: 'https://unleash.example.com/unleash/api/admin/projects', bodyText: '' })),
    problem: `this does not look like the admin API at ${BASE}: every request was answered with a redirect (301 to https://unleash.example.com/unleash/api/admin/projects), which the suite never follows; ${CHECK}, and whether it takes https://`,
  },
];

for (const c of CASES) {
  test(`not the admin API: ${c.description}`, () => {
    expect(preflightProblem({ baseUrl: BASE }, c.recording)).toBe(c.problem);
  });
}

test('every fault and every valid variant of the reference target is the admin API, and is judged', () => {
  for (const variant of [undefined, ...FAULTS, ...VALID_VARIANTS]) {
    expect(preflightProblem({ baseUrl: BASE }, recordInProcess(variant)), variant?.name ?? 'the reference target').toBeUndefined();
  }
});

test('an API that serves its projects list as a page, and its 401 as JSON, is judged: its violation is its own', () => {
  const recording = answeredWith((credential) => (credential === 'admin' ? page : jsonError(401)));
  expect(preflightProblem({ baseUrl: BASE }, recording)).toBeUndefined();
});
