import { loadChecks } from '../../checks/index.ts';
import { expect, test } from '@playwright/test';
import { loadConfig } from '../../harness/config/config.ts';
import { operationDrift, type Drift } from '../../harness/contracts/description-drift.ts';
import { shapeOf } from '../../harness/contracts/schema-shape.ts';
import { judge } from '../../harness/judging/judge.ts';
import { referenceDescription } from '../../reference-server/description.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

// Issue 13, point 6: a target's own OpenAPI description compared with the document, as data. Each case
// changes the reference implementation's description (made from the contracts, so faithful) in one way
// and names the differences that must be observed, and only those.

type Description = ReturnType<typeof descriptionCopy>;
const descriptionCopy = () =>
  JSON.parse(JSON.stringify(referenceDescription())) as { paths: Record<string, any>; components: { schemas: Record<string, any> } };

const CASES: { description: string; operation: 'signup-token' | 'projects'; change(d: Description): void; differences: Pick<Drift, 'at' | 'kind'>[] }[] = [
  { description: 'the faithful description differs in nothing', operation: 'signup-token', change: () => {}, differences: [] },
  { description: 'the faithful description of the projects differs in nothing', operation: 'projects', change: () => {}, differences: [] },
  {
    description: 'OpenAPI 3.0 nullable: true says what a type list with null says',
    operation: 'signup-token',
    change: (d) => Object.assign(d.components.schemas['public-signup-token'].properties.url, { type: 'string', nullable: true }),
    differences: [],
  },
  {
    description: 'a user field left out of the description',
    operation: 'signup-token',
    change: (d) => delete d.components.schemas.user.properties.isAPI,
    differences: [{ at: '200 users[].isAPI', kind: 'missing' }],
  },
  {
    description: 'a field the document does not have',
    operation: 'signup-token',
    change: (d) => (d.components.schemas.role.properties.color = { type: 'string' }),
    differences: [{ at: '200 role.color', kind: 'added' }],
  },
  {
    description: 'a required field described as optional',
    operation: 'signup-token',
    change: (d) => d.components.schemas['public-signup-token'].required.splice(2, 1),
    differences: [{ at: '200 name', kind: 'required' }],
  },
  {
    description: 'a date-time without its format',
    operation: 'signup-token',
    change: (d) => delete d.components.schemas['public-signup-token'].properties.expiresAt.format,
    differences: [{ at: '200 expiresAt', kind: 'format' }],
  },
  {
    description: 'an integer described as a number',
    operation: 'projects',
    change: (d) => (d.components.schemas.projects.properties.version.type = 'number'),
    differences: [{ at: '200 version', kind: 'type' }],
  },
  {
    description: 'a field described as not nullable',
    operation: 'projects',
    change: (d) => (d.components.schemas.project.properties.archivedAt.type = 'string'),
    differences: [{ at: '200 projects[].archivedAt', kind: 'nullable' }],
  },
  {
    description: 'an enum with a value of its own',
    operation: 'projects',
    change: (d) => d.components.schemas.project.properties.mode.enum.push('public'),
    differences: [{ at: '200 projects[].mode', kind: 'enum' }],
  },
  {
    description: 'health without its range and owners without their bound',
    operation: 'projects',
    change: (d) => {
      const p = d.components.schemas.project.properties;
      delete p.health.minimum;
      delete p.health.maximum;
      delete p.owners.minItems;
    },
    differences: [
      { at: '200 projects[].health', kind: 'range' },
      { at: '200 projects[].owners', kind: 'range' },
    ],
  },
  {
    description: 'the statuses listed, and an error answer without the error object',
    operation: 'projects',
    change: (d) => {
      const responses = d.paths['/api/admin/projects'].get.responses;
      responses[404] = { description: 'not found' };
      responses[401] = { description: 'no body described' };
    },
    differences: [
      { at: 'statuses', kind: 'statuses' },
      { at: '401', kind: 'content' },
    ],
  },
  {
    description: 'the error object with name optional',
    operation: 'signup-token',
    change: (d) => d.components.schemas.error.required.splice(0, 1),
    differences: [
      { at: '401 name', kind: 'required' },
      { at: '403 name', kind: 'required' },
    ],
  },
];

for (const c of CASES) {
  test(`drift: ${c.description}`, () => {
    const description = descriptionCopy();
    c.change(description);
    const { described, differences } = operationDrift(description, c.operation);
    expect(described).toBe(true);
    expect(differences.map(({ at, kind }) => ({ at, kind }))).toEqual(c.differences);
  });
}

test('an operation the description leaves out is observed as not described', () => {
  const description = descriptionCopy();
  description.paths['/api/admin/invite-link/{secret}'] = description.paths['/api/admin/invite-link/tokens/{token}'];
  delete description.paths['/api/admin/invite-link/tokens/{token}'];
  expect(operationDrift(description, 'signup-token')).toEqual({ described: false, differences: [] });
});

test('the drift clauses observe the fetched description, and are not exercised when no path is given', () => {
  const asked = { ...REFERENCE_INPUT, openapiPath: '/docs/openapi.json' };
  const checks = new Map(judge(recordInProcess(undefined, asked), asked, loadChecks()).map((c) => [c.clause, c]));
  for (const id of ['signup-token.observe.description-drift', 'projects.observe.description-drift']) {
    expect(checks.get(id)?.outcome).toBe('passed');
    expect(checks.get(id)?.observations).toMatchObject({ description: { path: '/docs/openapi.json', status: 200, openapi: '3.1.0' }, differences: [] });
  }
  const unasked = { ...REFERENCE_INPUT, openapiPath: undefined };
  const notAsked = new Map(judge(recordInProcess(undefined, unasked), unasked, loadChecks()).map((c) => [c.clause, c.outcome]));
  expect(notAsked.get('projects.observe.description-drift')).toBe('not-exercised');
  const missing = { ...REFERENCE_INPUT, openapiPath: '/no/such/description.json' };
  const unread = judge(recordInProcess(undefined, missing), missing, loadChecks()).find((c) => c.clause === 'projects.observe.description-drift');
  expect(unread?.observations).toMatchObject({ description: { problem: 'answered 404' } });
});

test('CONFORMANCE_OPENAPI_PATH is a path below the base URL, never another address', () => {
  const target = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123' };
  expect(loadConfig({ ...target, CONFORMANCE_OPENAPI_PATH: '/docs/openapi.json' }).openapiPath).toBe('/docs/openapi.json');
  for (const bad of ['https://elsewhere.example/openapi.json', '//elsewhere.example/x', 'docs/openapi.json']) {
    expect(() => loadConfig({ ...target, CONFORMANCE_OPENAPI_PATH: bad })).toThrow('CONFORMANCE_OPENAPI_PATH must be a path below the base URL');
  }
});

test('a description shaped oddly anywhere (null paths, operation, responses, content) says nothing there, and breaks no check', () => {
  const op = (get: unknown) => ({ paths: { '/api/admin/projects': get } });
  const odd: unknown[] = [
    null,
    7,
    { paths: null },
    { paths: ['/api/admin/projects'] },
    op(null),
    op({ get: null }),
    op({ get: { responses: null } }),
    op({ get: { responses: { 200: null, 401: 'x', 403: [] } } }),
    op({ get: { responses: { 200: { content: null } } } }),
    op({ get: { responses: { 200: { content: { 'application/json': null } } } } }),
  ];
  for (const description of odd) expect(() => operationDrift(description, 'projects'), JSON.stringify(description)).not.toThrow();
  expect(operationDrift(op(null), 'projects')).toEqual({ described: false, differences: [] });
});

/** The two drift clauses' outcomes and observations when the target serves `text` as its description. */
function judgeServed(text: string) {
  const recording = recordInProcess(undefined);
  for (const exchange of recording.exchanges)
    if (exchange.request.path === REFERENCE_INPUT.openapiPath) Object.assign(exchange, { bodyText: text, bodyBytes: Buffer.byteLength(text) });
  return judge(recording, REFERENCE_INPUT, loadChecks()).filter((c) => c.clause.endsWith('.observe.description-drift'));
}

const served = (change: (d: Description) => void) => {
  const description = descriptionCopy();
  change(description);
  return JSON.stringify(description);
};

// A description is target data like any body: whatever JSON it is, both clauses observe what was received.
// A schema changed in the projects' description changes only the observation of the projects.
const SERVED: { description: string; text: string; observed: Record<string, unknown>; only?: 'projects.observe.description-drift' }[] = [
  {
    description: 'null',
    text: 'null',
    observed: { description: { problem: 'not an OpenAPI description: the body is null, where a description is an object' } },
  },
  {
    description: 'a list',
    text: '[{"paths":{}}]',
    observed: { description: { problem: 'not an OpenAPI description: the body is a list of 1 item, where a description is an object' } },
  },
  {
    description: 'a string',
    text: '"openapi"',
    observed: { description: { problem: 'not an OpenAPI description: the body is a string of 7 characters, where a description is an object' } },
  },
  {
    description: 'a number, as written',
    text: '1e400',
    observed: { description: { problem: 'not an OpenAPI description: the body is the number 1e400, where a description is an object' } },
  },
  {
    description: 'false',
    text: 'false',
    observed: { description: { problem: 'not an OpenAPI description: the body is false, where a description is an object' } },
  },
  {
    description: 'paths that are null',
    text: '{"openapi":"3.1.0","paths":null}',
    observed: { description: { openapi: '3.1.0', problem: 'its paths are null, where a description lists its operations in an object' }, differences: [] },
  },
  {
    description: 'no paths',
    text: '{"components":5}',
    observed: { description: { problem: 'its paths are absent, where a description lists its operations in an object' } },
  },
  { description: 'info and openapi of odd kinds', text: '{"openapi":7,"info":"x","paths":{}}', observed: { description: { openapi: 7 }, differences: [] } },
  {
    description: 'a schema whose required is no list',
    text: served((d) => (d.components.schemas.projects.required = 5)),
    observed: {
      differences: [
        { at: '200 version', kind: 'required' },
        { at: '200 projects', kind: 'required' },
      ],
    },
    only: 'projects.observe.description-drift',
  },
  {
    description: 'an enum that is no list, read as the one value it holds',
    text: served((d) => (d.components.schemas.project.properties.mode.enum = 5)),
    observed: { differences: [{ at: '200 projects[].mode', kind: 'enum', description: '5' }] },
    only: 'projects.observe.description-drift',
  },
  {
    description: 'a type that is no name, read as its JSON text',
    text: served((d) => (d.components.schemas.project.properties.health.type = { integer: true })),
    observed: { differences: [{ at: '200 projects[].health', kind: 'type', description: '{"integer":true}' }] },
    only: 'projects.observe.description-drift',
  },
  {
    description: 'a oneOf that is no list, and an allOf part whose required is a number',
    text: served((d) => {
      d.components.schemas.owner = { oneOf: 5 };
      d.components.schemas.projects.allOf = [{ required: 7 }];
    }),
    observed: {},
  },
  {
    description: "a reference to a key only an object's prototype has",
    text: served((d) => (d.components.schemas.project.properties.owners.items = { $ref: '#/components/schemas/constructor' })),
    observed: {},
  },
];

for (const c of SERVED) {
  test(`a description served as ${c.description} is observed by both clauses, never a broken check`, () => {
    for (const check of judgeServed(c.text)) {
      expect(check.crash, check.clause).toBeUndefined();
      expect(check.outcome, check.clause).toBe('passed');
      if (c.only === undefined || c.only === check.clause) expect(check.observations, check.clause).toMatchObject(c.observed);
    }
  });
}

test('a description whose schemas refer to one another twice at each of forty levels is read once per schema, and observed', () => {
  // Read path by path this is 2^40 schemas from a few kilobytes: the judge would never end. Each is read once,
  // which the references resolved count (a bound that throws, so that a regression fails here instead of hanging).
  const description = descriptionCopy();
  const ref = (level: number) => ({ $ref: `#/components/schemas/level${level}` });
  for (let level = 0; level < 40; level++)
    description.components.schemas[`level${level}`] = { properties: { left: ref(level + 1), right: ref(level + 1) }, allOf: [ref(level + 1), ref(level + 1)] };
  description.components.schemas.project.properties.nested = ref(0);
  let resolved = 0;
  shapeOf(ref(0), (pointer) => {
    if (++resolved > 1000) throw new Error(`more than 1000 references resolved, where the description holds ${40 * 4}`);
    return description.components.schemas[pointer.replace('#/components/schemas/', '')];
  });
  const { differences } = operationDrift(description, 'projects');
  expect(differences.map(({ at, kind }) => ({ at, kind }))).toEqual([{ at: '200 projects[].nested', kind: 'added' }]);
});
