import { expect, test } from '@playwright/test';
import type { Exchange } from '../../harness/transport/exchange.ts';
import { readJsonBody } from '../../harness/json/json-body.ts';
import { schemaFindings } from '../../harness/judging/violations.ts';

const exchange = { request: { method: 'GET', path: '/x', credential: 'admin' }, url: 'http://t/x', startedAt: 0, durationMs: 0, bodyBytes: 0 } as Exchange;

const CONTRACT = { 'signup-token': 'public-signup-token', projects: 'projects' } as const;

/** The schema clauses a body breaks, each with the pointers of its violations; the body is read from its JSON text. */
function failingText(operation: 'signup-token' | 'projects', text: string): Record<string, string[]> {
  const read = readJsonBody(text);
  if (!read.ok) throw new Error(read.reason);
  const checks = schemaFindings(CONTRACT[operation], [{ exchange, body: read.body }]);
  return Object.fromEntries([...checks].filter(([, c]) => c.violations.length > 0).map(([id, c]) => [id, c.violations.map((v) => v.pointer)]));
}

const failing = (operation: 'signup-token' | 'projects', body: unknown) => failingText(operation, JSON.stringify(body));

const token = {
  secret: 's',
  url: null,
  name: 'n',
  enabled: true,
  expiresAt: '2030-01-01T00:00:00Z',
  createdAt: '2024-01-01T00:00:00Z',
  createdBy: null,
  role: { id: 1, type: 'root', name: 'Admin' },
};

test('each schema error of a token lands in the clause of the object and aspect it breaks', () => {
  expect(failing('signup-token', token)).toEqual({});
  expect(failing('signup-token', { ...token, url: undefined })).toEqual({ 'signup-token.token.required': ['/url'] });
  expect(failing('signup-token', { ...token, name: null })).toEqual({ 'signup-token.token.nullability': ['/name'] });
  expect(failing('signup-token', { ...token, role: null })).toEqual({ 'signup-token.token.nullability': ['/role'] });
  expect(failing('signup-token', { ...token, enabled: 'yes' })).toEqual({ 'signup-token.token.types': ['/enabled'] });
  expect(failing('signup-token', { ...token, createdAt: '2024-01-01T00:00:00' })).toEqual({ 'signup-token.token.date-time': ['/createdAt'] });
  expect(failing('signup-token', { ...token, users: [{ name: 'x', seenAt: 'soon', email: null }] })).toEqual({
    'signup-token.user.required': ['/users/0/id'],
    'signup-token.user.date-time': ['/users/0/seenAt'],
    'signup-token.user.nullability': ['/users/0/email'],
  });
  expect(failing('signup-token', { ...token, role: { id: '1', name: 'A', project: 3 } })).toEqual({
    'signup-token.role.required': ['/role/type'],
    'signup-token.role.types': ['/role/id', '/role/project'],
  });
});

test('each schema error of a projects list lands in the clause of the object and aspect it breaks', () => {
  const project = { id: 'p', name: 'P' };
  expect(failing('projects', { version: 1, projects: [project] })).toEqual({});
  expect(failing('projects', { projects: [] })).toEqual({ 'projects.list.required': ['/version'] });
  expect(failing('projects', { version: null, projects: [] })).toEqual({ 'projects.list.types': ['/version'] });
  expect(failing('projects', { version: 1, projects: [{ ...project, health: 101, mode: 'x', owners: [] }] })).toEqual({
    'projects.project.health-range': ['/projects/0/health'],
    'projects.project.types': ['/projects/0/mode'],
    'projects.project.owners-not-empty': ['/projects/0/owners'],
  });
  expect(
    failing('projects', {
      version: 1,
      projects: [{ ...project, owners: [{ ownerType: 'team' }, { name: 'x' }, { ownerType: 'user' }, { ownerType: 'group', name: 1 }] }],
    }),
  ).toEqual({
    'projects.owner.kind': ['/projects/0/owners/0', '/projects/0/owners/1/ownerType', '/projects/0/owners/1'],
    'projects.owner.user': ['/projects/0/owners/2/name'],
    'projects.owner.group': ['/projects/0/owners/3/name'],
  });
});

test('a list element that is not an object belongs to the element, and a null fails nullability once', () => {
  expect(failing('signup-token', { ...token, users: [null] })).toEqual({ 'signup-token.user.nullability': ['/users/0'] });
  expect(failing('projects', { version: 1, projects: [{ id: 'p', name: 'P', mode: null }] })).toEqual({ 'projects.project.nullability': ['/projects/0/mode'] });
  expect(failing('projects', { version: 1, projects: [{ id: 'p', name: 'P', owners: ['system'] }] })).toEqual({
    'projects.owner.kind': ['/projects/0/owners/0'],
  });
  expect(failing('projects', { version: 1, projects: ['p'] })).toEqual({ 'projects.project.types': ['/projects/0'] });
});

test('a body is judged as sent: numbers beyond a double, fractions a double rounds to whole, repeated keys', () => {
  const text = JSON.stringify(token);
  // 1e400 is a number, but not a string or null: url breaks its type, and is reported as written.
  expect(failingText('signup-token', text.replace('"url":null', '"url":1e400'))).toEqual({ 'signup-token.token.types': ['/url'] });
  expect(failingText('signup-token', text.replace('"id":1', '"id":9007199254740993.5'))).toEqual({ 'signup-token.role.types': ['/role/id'] });
  expect(failingText('signup-token', text.replace('"id":1', '"id":1e400'))).toEqual({});
  expect(failingText('signup-token', text.replace('"id":1', '"id":1.0'))).toEqual({});
  expect(failingText('projects', '{"version":1,"projects":[{"id":"p","name":"P","health":100.00000000000000001}]}')).toEqual({
    'projects.project.health-range': ['/projects/0/health'],
  });
  expect(failingText('projects', '{"version":1,"projects":[{"id":"p","name":"P","health":-1e-400}]}')).toEqual({
    'projects.project.health-range': ['/projects/0/health'],
  });
  expect(failingText('projects', '{"version":1,"projects":[{"id":"p","name":"P","health":-0}]}')).toEqual({});
  // A repeated key is judged on every value a reader may take, the first as much as the last.
  expect(failingText('signup-token', text.replace('"enabled":true', '"enabled":"yes","enabled":true'))).toEqual({ 'signup-token.token.types': ['/enabled'] });
});

test('what was received is quoted as the target wrote it', () => {
  const read = readJsonBody(JSON.stringify(token).replace('"url":null', '"url":1e400'));
  if (!read.ok) throw new Error(read.reason);
  const check = schemaFindings('public-signup-token', [{ exchange, body: read.body }]).get('signup-token.token.types')!;
  expect(check.violations[0].received).toBe('1e400');
});
