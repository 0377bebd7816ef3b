import { expect, test } from '@playwright/test';
import type { Exchange } from '../../harness/exchange.ts';
import { schemaChecks } from '../../harness/schema-findings.ts';

const exchange = { request: { method: 'GET', path: '/x', credential: 'admin' }, url: 'http://t/x', startedAt: 0, durationMs: 0, bodyBytes: 0 } as Exchange;

function failing(operation: 'signup-token' | 'projects', body: unknown): Record<string, string[]> {
  const checks = schemaChecks(operation, [{ exchange, body }]);
  return Object.fromEntries([...checks].filter(([, c]) => c.violations.length > 0).map(([id, c]) => [id, c.violations.map((v) => v.pointer)]));
}

const token = { secret: 's', url: null, name: 'n', enabled: true, expiresAt: '2030-01-01T00:00:00Z', createdAt: '2024-01-01T00:00:00Z', createdBy: null, role: { id: 1, type: 'root', name: 'Admin' } };

test('each schema error of a token lands in the clause of the object and aspect it breaks', () => {
  expect(failing('signup-token', token)).toEqual({});
  expect(failing('signup-token', { ...token, url: undefined })).toEqual({ 'signup-token.token.required': ['/url'] });
  expect(failing('signup-token', { ...token, name: null })).toEqual({ 'signup-token.token.nullability': ['/name'] });
  expect(failing('signup-token', { ...token, role: null })).toEqual({ 'signup-token.token.nullability': ['/role'] });
  expect(failing('signup-token', { ...token, enabled: 'yes' })).toEqual({ 'signup-token.token.types': ['/enabled'] });
  expect(failing('signup-token', { ...token, createdAt: '2024-01-01T00:00:00' })).toEqual({ 'signup-token.token.date-time': ['/createdAt'] });
  expect(failing('signup-token', { ...token, users: [{ name: 'x', seenAt: 'soon', email: null }] })).toEqual({
    'signup-token.user.required': ['/users/0/id'], 'signup-token.user.date-time': ['/users/0/seenAt'], 'signup-token.user.nullability': ['/users/0/email'],
  });
  expect(failing('signup-token', { ...token, role: { id: '1', name: 'A', project: 3 } })).toEqual({
    'signup-token.role.required': ['/role/type'], 'signup-token.role.types': ['/role/id', '/role/project'],
  });
});

test('each schema error of a projects list lands in the clause of the object and aspect it breaks', () => {
  const project = { id: 'p', name: 'P' };
  expect(failing('projects', { version: 1, projects: [project] })).toEqual({});
  expect(failing('projects', { projects: [] })).toEqual({ 'projects.list.required': ['/version'] });
  expect(failing('projects', { version: null, projects: [] })).toEqual({ 'projects.list.types': ['/version'] });
  expect(failing('projects', { version: 1, projects: [{ ...project, health: 101, mode: 'x', owners: [] }] })).toEqual({
    'projects.project.health-range': ['/projects/0/health'], 'projects.project.types': ['/projects/0/mode'], 'projects.project.owners-not-empty': ['/projects/0/owners'],
  });
  expect(failing('projects', { version: 1, projects: [{ ...project, owners: [{ ownerType: 'team' }, { name: 'x' }, { ownerType: 'user' }, { ownerType: 'group', name: 1 }] }] })).toEqual({
    'projects.owner.kind': ['/projects/0/owners/0', '/projects/0/owners/1/ownerType', '/projects/0/owners/1'],
    'projects.owner.user': ['/projects/0/owners/2/name'],
    'projects.owner.group': ['/projects/0/owners/3/name'],
  });
});

test('a list element that is not an object belongs to the element, and a null fails nullability once', () => {
  expect(failing('signup-token', { ...token, users: [null] })).toEqual({ 'signup-token.user.nullability': ['/users/0'] });
  expect(failing('projects', { version: 1, projects: [{ id: 'p', name: 'P', mode: null }] })).toEqual({ 'projects.project.nullability': ['/projects/0/mode'] });
  expect(failing('projects', { version: 1, projects: [{ id: 'p', name: 'P', owners: ['system'] }] })).toEqual({ 'projects.owner.kind': ['/projects/0/owners/0'] });
  expect(failing('projects', { version: 1, projects: ['p'] })).toEqual({ 'projects.project.types': ['/projects/0'] });
});
