import type { ErrorObject } from 'ajv';
import type { Exchange } from './exchange.ts';
import { ClauseCheck } from './verdict.ts';
import { validators } from './validator.ts';

export type Operation = 'signup-token' | 'projects';

type ObjectKind = 'token' | 'user' | 'role' | 'list' | 'project' | 'owner';
type Aspect = 'required' | 'types' | 'nullability' | 'date-time' | 'health-range' | 'owners-not-empty' | 'kind';

// Where each object of section 2 sits in a response body, by JSON pointer.
const OBJECTS: Record<Operation, [RegExp, ObjectKind][]> = {
  'signup-token': [[/^\/users\/\d+$/, 'user'], [/^\/role$/, 'role'], [/^$/, 'token']],
  projects: [[/^\/projects\/\d+\/owners\/\d+$/, 'owner'], [/^\/projects\/\d+$/, 'project'], [/^$/, 'list']],
};

/** The schema-based clauses of each operation, in the order they are reported. */
export const SCHEMA_CLAUSES: Record<Operation, string[]> = {
  'signup-token': ['token', 'user', 'role'].flatMap((o) => ['required', 'types', 'nullability', ...(o === 'role' ? [] : ['date-time'])].map((a) => `signup-token.${o}.${a}`)),
  projects: [
    'projects.list.required', 'projects.list.types',
    ...['required', 'types', 'nullability', 'date-time', 'health-range', 'owners-not-empty'].map((a) => `projects.project.${a}`),
    'projects.owner.kind', 'projects.owner.user', 'projects.owner.group',
  ],
};

const SCHEMA_OF: Record<Operation, 'public-signup-token' | 'projects'> = { 'signup-token': 'public-signup-token', projects: 'projects' };

export function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

// A value's own errors (type, format, range) belong to the object that holds the field; errors about
// an object's members (required, discriminator) belong to that object, and so does an element of a list
// of objects (users, projects, owners) that is not an object at all.
function owningObject(operation: Operation, error: ErrorObject): { pointer: string; kind: ObjectKind } {
  const isElement = /\/\d+$/.test(error.instancePath) && OBJECTS[operation].some(([pattern]) => pattern.test(error.instancePath));
  let pointer = ['required', 'discriminator'].includes(error.keyword) || isElement ? error.instancePath : parentOf(error.instancePath);
  for (;;) {
    const hit = OBJECTS[operation].find(([pattern]) => pattern.test(pointer));
    if (hit) return { pointer, kind: hit[1] };
    pointer = parentOf(pointer);
  }
}

function aspectOf(error: ErrorObject, value: unknown): Aspect {
  if (error.keyword === 'required') return 'required';
  if (error.keyword === 'discriminator') return 'kind';
  if (error.keyword === 'format') return 'date-time';
  if (error.keyword === 'minItems') return 'owners-not-empty';
  if (error.keyword === 'minimum' || error.keyword === 'maximum') return 'health-range';
  // A null where the document allows none is a nullability fault, whichever keyword noticed it (type, enum).
  return value === null && (error.keyword === 'type' || error.keyword === 'enum') ? 'nullability' : 'types';
}

function clauseFor(operation: Operation, kind: ObjectKind, aspect: Aspect, owner: unknown): string {
  if (kind === 'owner') {
    const ownerType = (owner as { ownerType?: unknown } | null)?.ownerType;
    return aspect === 'kind' || aspect === 'required' && ownerType === undefined || (ownerType !== 'user' && ownerType !== 'group')
      ? 'projects.owner.kind'
      : `projects.owner.${ownerType}`;
  }
  // The projects list (2.4) has no nullable column: a null there is a wrong type.
  if (kind === 'list') return `projects.list.${aspect === 'required' ? 'required' : 'types'}`;
  return `${operation}.${kind}.${aspect}`;
}

const EXPECTED_TEXT: Record<string, (e: ErrorObject) => string> = {
  required: (e) => `the field "${e.params.missingProperty}" to be present`,
  type: (e) => `a value of type ${[e.params.type].flat().join(' or ')}`,
  format: () => 'an RFC 3339 date-time with a time-zone offset (e.g. 2024-05-01T12:00:00Z)',
  enum: (e) => `one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
  minimum: () => 'a value of at least 0',
  maximum: () => 'a value of at most 100',
  minItems: () => 'at least one owner (the system owner when there is none)',
  discriminator: () => 'an ownerType of "user", "group" or "system"',
};

export function describeReceived(value: unknown): string {
  if (value === undefined) return 'nothing (the field is absent)';
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function toViolation(error: ErrorObject, body: unknown): { pointer: string; received: string; required: string } {
  const pointer = error.keyword === 'required' ? `${error.instancePath}/${error.params.missingProperty}` : error.instancePath;
  const required = EXPECTED_TEXT[error.keyword]?.(error) ?? error.message ?? error.keyword;
  return { pointer, received: describeReceived(valueAt(body, pointer)), required };
}

/** Runs the schema once on each body and sorts every error into the clause it breaks. */
export function schemaChecks(operation: Operation, readable: { exchange: Exchange; body: unknown }[]): Map<string, ClauseCheck> {
  const checks = new Map(SCHEMA_CLAUSES[operation].map((id) => [id, new ClauseCheck(id)]));
  for (const { exchange, body } of readable) {
    for (const [clause, n] of countInstances(operation, body)) checks.get(clause)!.count(n);
    const reported = new Set<string>();
    for (const error of validators().validate(SCHEMA_OF[operation], body)) {
      const owner = owningObject(operation, error);
      const clause = clauseFor(operation, owner.kind, aspectOf(error, valueAt(body, error.instancePath)), valueAt(body, owner.pointer));
      const v = toViolation(error, body);
      // One value can fail two keywords (a null mode fails type and enum): it is one violation.
      const seen = `${clause} ${v.pointer}`;
      if (reported.has(seen)) continue;
      reported.add(seen);
      checks.get(clause)!.violate(exchange, v.pointer, v.received, v.required);
    }
  }
  return checks;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const arrayOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const countDates = (o: Record<string, unknown>, fields: string[]) => fields.filter((f) => typeof o[f] === 'string').length;

const PROJECT_DATES = ['createdAt', 'updatedAt', 'lastUpdatedAt', 'archivedAt', 'lastReportedFlagUsage'];

/** How many objects (or values) of each kind a body holds: what each clause actually looked at. */
export function countInstances(operation: Operation, body: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (clauses: string[], n = 1) => clauses.forEach((c) => counts.set(c, (counts.get(c) ?? 0) + n));
  if (!isObject(body)) return add(operation === 'projects' ? ['projects.list.required', 'projects.list.types'] : ['signup-token.token.required', 'signup-token.token.types', 'signup-token.token.nullability']), counts;
  if (operation === 'signup-token') {
    add(['required', 'types', 'nullability'].map((a) => `signup-token.token.${a}`));
    add(['signup-token.token.date-time'], countDates(body, ['expiresAt', 'createdAt']));
    for (const user of arrayOf(body.users)) {
      add(['required', 'types', 'nullability'].map((a) => `signup-token.user.${a}`));
      if (isObject(user)) add(['signup-token.user.date-time'], countDates(user, ['seenAt', 'createdAt']));
    }
    if (isObject(body.role)) add(['required', 'types', 'nullability'].map((a) => `signup-token.role.${a}`));
    return counts;
  }
  add(['projects.list.required', 'projects.list.types']);
  for (const project of arrayOf(body.projects)) {
    add(['required', 'types', 'nullability'].map((a) => `projects.project.${a}`));
    if (!isObject(project)) continue;
    add(['projects.project.date-time'], countDates(project, PROJECT_DATES));
    if (project.health !== undefined) add(['projects.project.health-range']);
    if (project.owners !== undefined) add(['projects.project.owners-not-empty']);
    for (const owner of arrayOf(project.owners)) {
      add(['projects.owner.kind']);
      if (isObject(owner) && (owner.ownerType === 'user' || owner.ownerType === 'group')) add([`projects.owner.${owner.ownerType}`]);
    }
  }
  return counts;
}
