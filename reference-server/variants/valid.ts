import { respond } from '../respond.ts';
import { OWNER_CLAUSES, PROJECT_CLAUSES } from './project-clauses.ts';
import { compose, mapBody, mapDateTimes, mutate, rawText, rewrite, withContentType, withOffset, type Json, type ValidVariant } from './transforms.ts';

// Servers that differ from the reference in ways the document allows. The suite must pass each one.

const pick = (object: Json, keys: string[]) => Object.fromEntries(keys.filter((k) => k in object).map((k) => [k, object[k]]));
const setAll = (object: Json, keys: string[], value: unknown) => keys.forEach((k) => (object[k] = value));

const withMicroseconds = (dateTime: string) => withOffset(dateTime, 120, `${dateTime.slice(20, 23)}456`);
const vendorFields = (object: Json) => Object.assign(object, { 'x-vendor-trace': 'c0a8-01', vendorExtras: { tier: 'gold', tags: ['a', 'b'] } });

// Unicode beyond the Basic Multilingual Plane, combining marks and right-to-left text, over 10 000 characters.
const LONG_UNICODE = 'Équipe 入職 🚀 Ḁ̈ עברית '.repeat(600);

const NOT_FOUND_PAGE = '<!doctype html><h1>Not found</h1>';

/** Every valid variant; each must pass with exit code 0. */
export const VALID_VARIANTS: ValidVariant[] = [
  {
    name: 'vendor-fields-everywhere',
    description: 'every token, user, role, list, project, owner and error object carries fields the document does not name',
    transform: compose(
      mutate.token((t) => {
        vendorFields(t);
        vendorFields(t.role);
      }),
      mutate.users(vendorFields),
      mutate.projects(vendorFields),
      mutate.eachProject(vendorFields),
      mutate.owners(vendorFields),
      mutate.errors(401, vendorFields),
      mutate.errors(403, vendorFields),
    ),
  },
  {
    name: 'optional-fields-absent',
    description: 'every optional field is left out: users reduced to their id, roles to id, type and name, projects to id and name, errors without id',
    notExercised: [
      'signup-token.user.date-time',
      'projects.project.date-time',
      'projects.project.health-range',
      'projects.project.owners-not-empty',
      ...OWNER_CLAUSES,
    ],
    transform: compose(
      mapBody('signup-token', (t) => {
        const users = Array.isArray(t.users) && t.users.length > 0 ? { users: t.users.map((u: Json) => pick(u, ['id'])) } : {};
        const required = pick(t, ['secret', 'url', 'name', 'enabled', 'expiresAt', 'createdAt', 'createdBy']);
        return { ...required, role: pick(t.role, ['id', 'type', 'name']), ...users };
      }),
      mutate.projects((l) => (l.projects = l.projects.map((p: Json) => pick(p, ['id', 'name'])))),
      mutate.errors(401, (e) => delete e.id),
      mutate.errors(403, (e) => delete e.id),
    ),
  },
  {
    name: 'nullable-fields-null',
    description: 'every nullable field is null: url, createdBy, users where nobody signed up, the nullable user, role, project and owner fields',
    transform: compose(
      mutate.token((t) => {
        setAll(t, ['url', 'createdBy'], null);
        if (!Array.isArray(t.users) || t.users.length === 0) t.users = null;
      }),
      mutate.users((u) => setAll(u, ['name', 'username', 'seenAt', 'scimId'], null)),
      mutate.role((r) => (r.project = null)),
      mutate.eachProject((p) => setAll(p, ['description', 'updatedAt', 'lastUpdatedAt', 'archivedAt', 'lastReportedFlagUsage'], null)),
      mutate.owners((o) => o.ownerType === 'user' && setAll(o, ['imageUrl', 'email'], null)),
    ),
  },
  {
    name: 'offset-date-times',
    description: 'every date-time is written with a +02:00 offset and microseconds',
    transform: compose(
      mapBody('signup-token', (t) => mapDateTimes(t, withMicroseconds)),
      mapBody('projects', (l) => mapDateTimes(l, withMicroseconds)),
    ),
  },
  {
    name: 'date-time-edge-forms',
    description: 'token date-times use lower-case "t" and "z", project date-times a -05:30 offset without fraction, and one a leap second',
    transform: compose(
      mapBody('signup-token', (t) => mapDateTimes(t, (d) => d.toLowerCase())),
      mapBody('projects', (l) => mapDateTimes(l, (d) => withOffset(d, -330, ''))),
      mutate.eachProject((p, i) => i === 0 && (p.createdAt = '2016-12-31T23:59:60Z')),
    ),
  },
  {
    name: 'unicode-long-names',
    description: 'names and descriptions are over 10 000 characters of unicode, emoji and right-to-left text',
    transform: compose(
      mutate.token((t) => setAll(t, ['name'], LONG_UNICODE)),
      mutate.users((u) => setAll(u, ['name'], LONG_UNICODE)),
      mutate.role((r) => setAll(r, ['name', 'description'], LONG_UNICODE)),
      mutate.eachProject((p) => setAll(p, ['name', 'description'], LONG_UNICODE)),
      mutate.owners((o) => o.ownerType !== 'system' && setAll(o, ['name'], LONG_UNICODE)),
    ),
  },
  {
    name: 'numbers-at-edges',
    description: 'project health is exactly 0 or exactly 100, and the other number fields hold fractions',
    transform: mutate.eachProject((p, i) => {
      setAll(p, ['featureCount', 'staleFeatureCount', 'potentiallyStaleFeatureCount', 'memberCount', 'avgTimeToProduction'], 33.25);
      p.health = i % 2 === 0 ? 0 : 100;
    }),
  },
  {
    name: 'system-owners-only',
    description: 'every project is owned by the system owner alone',
    notExercised: ['projects.owner.user', 'projects.owner.group'],
    transform: mutate.eachProject((p) => (p.owners = [{ ownerType: 'system' }])),
  },
  {
    name: 'no-owners-field',
    description: 'no project carries the optional owners field',
    notExercised: ['projects.project.owners-not-empty', ...OWNER_CLAUSES],
    transform: mutate.eachProject((p) => delete p.owners),
  },
  {
    name: 'empty-projects-list',
    description: 'every projects list is empty',
    notExercised: [...PROJECT_CLAUSES, ...OWNER_CLAUSES],
    transform: mutate.projects((l) => (l.projects = [])),
  },
  {
    name: 'content-type-charset-upper-case',
    description: 'every JSON answer is labelled "Application/JSON;charset=UTF-8"',
    transform: rewrite({}, withContentType('Application/JSON;charset=UTF-8')),
  },
  {
    name: 'content-type-given-twice-alike',
    description: 'every JSON answer gives Content-Type twice, both application/json (a proxy that adds its own)',
    transform: rewrite({}, withContentType('application/json; charset=utf-8, application/json')),
  },
  {
    name: 'tokens-disabled-before-expiry',
    description: 'every signup token is disabled, the live ones too',
    transform: mutate.token((t) => (t.enabled = false)),
  },
  { name: 'projects-version-2', description: 'the projects list reports version 2', transform: mutate.projects((l) => (l.version = 2)) },
  {
    name: 'unshown-behaviour-differs',
    description: 'archived=true and archived=false get the same list as no parameter, and an unknown secret an HTML 404 page',
    transform: compose(
      rewrite({ operation: 'projects', archived: ['true', 'false'] }, (_, request) => respond({ ...request, query: new URLSearchParams() })),
      rewrite({ operation: 'signup-token', status: 404 }, () => rawText(404, 'text/html; charset=utf-8', NOT_FOUND_PAGE)),
    ),
  },
];
