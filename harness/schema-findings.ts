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
      // One value can fail two keywords (a null mode fails type and enum): it is one violation.
      const pointer = error.keyword === 'required' ? `${error.instancePath}/${error.params.missingProperty}` : error.instancePath;
      if (reported.has(`${clause} ${pointer}`)) continue;
      reported.add(`${clause} ${pointer}`);
      const check = checks.get(clause)!;
      if (check.isFull) check.cut();
      else {
        const v = toViolation(error, body);
        check.violate(exchange, v.pointer, v.received, v.required);
      }
    }
  }
  return checks;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const arrayOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const countDates = (o: Record<string, unknown>, fields: string[]) => fields.filter((f) => typeof o[f] === 'string').length;

const PROJECT_DATES = ['createdAt', 'updatedAt', 'lastUpdatedAt', 'archivedAt', 'lastReportedFlagUsage'];
const USER_DATES = ['seenAt', 'createdAt'];
const OBJECT_ASPECTS = ['required', 'types', 'nullability'];
const aspectsOf = (object: string) => OBJECT_ASPECTS.map((a) => `${object}.${a}`);

/** A tally of what each clause looked at; counted per kind of object, so a large list costs no allocation per item. */
class Tally {
  readonly counts = new Map<string, number>();

  add(clauses: string[], n = 1): void {
    if (n > 0) for (const c of clauses) this.counts.set(c, (this.counts.get(c) ?? 0) + n);
  }
}

function countToken(body: Record<string, unknown>, tally: Tally): void {
  tally.add(aspectsOf('signup-token.token'));
  tally.add(['signup-token.token.date-time'], countDates(body, ['expiresAt', 'createdAt']));
  const users = arrayOf(body.users);
  tally.add(aspectsOf('signup-token.user'), users.length);
  tally.add(['signup-token.user.date-time'], users.reduce((n: number, u) => n + (isObject(u) ? countDates(u, USER_DATES) : 0), 0));
  if (isObject(body.role)) tally.add(aspectsOf('signup-token.role'));
}

function countProjects(body: Record<string, unknown>, tally: Tally): void {
  tally.add(['projects.list.required', 'projects.list.types']);
  const projects = arrayOf(body.projects);
  let [dates, health, withOwners, owners, userOwners, groupOwners] = [0, 0, 0, 0, 0, 0];
  for (const project of projects) {
    if (!isObject(project)) continue;
    dates += countDates(project, PROJECT_DATES);
    if (project.health !== undefined) health += 1;
    if (project.owners === undefined) continue;
    withOwners += 1;
    for (const owner of arrayOf(project.owners)) {
      owners += 1;
      if (isObject(owner) && owner.ownerType === 'user') userOwners += 1;
      if (isObject(owner) && owner.ownerType === 'group') groupOwners += 1;
    }
  }
  tally.add(aspectsOf('projects.project'), projects.length);
  tally.add(['projects.project.date-time'], dates);
  tally.add(['projects.project.health-range'], health);
  tally.add(['projects.project.owners-not-empty'], withOwners);
  tally.add(['projects.owner.kind'], owners);
  tally.add(['projects.owner.user'], userOwners);
  tally.add(['projects.owner.group'], groupOwners);
}

/** How many objects (or values) of each kind a body holds: what each clause actually looked at. */
export function countInstances(operation: Operation, body: unknown): Map<string, number> {
  const tally = new Tally();
  if (!isObject(body)) tally.add(operation === 'projects' ? ['projects.list.required', 'projects.list.types'] : aspectsOf('signup-token.token'));
  else if (operation === 'signup-token') countToken(body, tally);
  else countProjects(body, tally);
  return tally.counts;
}
