import { errorBody, json } from '../respond.ts';
import { OWNER_CLAUSES, PROJECT_CLAUSES } from './project-clauses.ts';
import {
  PLAIN_LIST,
  answerAs,
  answerForAnotherSecret,
  mutate,
  rawText,
  rewrite,
  truncated,
  withContentType,
  type Change,
  type Credential,
  type Fault,
  type Json,
  type Match,
} from './transforms.ts';
import { isExpired } from '../../harness/contracts/expiry.ts';

// Each fault breaks the document in one way. Faults in project data change only the list asked for
// without the archived parameter, so that each proves its own clause; projects.archived.accepted has
// faults of its own.

const zoneless = (dateTime: string) => dateTime.replace(/Z$/, '');
const userOwners = (change: Change) => mutate.owners((o) => o.ownerType === 'user' && change(o), PLAIN_LIST);
const groupOwners = (change: Change) => mutate.owners((o) => o.ownerType === 'group' && change(o), PLAIN_LIST);

/** Clauses that judge the projects list without the archived parameter; an unreadable one leaves them errored. */
const PROJECTS_BODY_CLAUSES = ['projects.list.required', 'projects.list.types', ...PROJECT_CLAUSES, ...OWNER_CLAUSES];

const SIGNUP_TOKEN_FAULTS: Fault[] = [
  {
    name: 'token-served-as-html',
    description: '200 answers to token requests carry content-type text/html',
    breaks: ['signup-token.response.json'],
    transform: rewrite({ operation: 'signup-token', status: 200 }, withContentType('text/html; charset=utf-8')),
  },
  {
    name: 'token-content-type-twice',
    description: '200 answers to token requests give Content-Type twice, application/json and text/html',
    breaks: ['signup-token.response.json'],
    transform: rewrite({ operation: 'signup-token', status: 200 }, withContentType('application/json; charset=utf-8, text/html')),
  },
  {
    name: 'token-of-another-secret',
    description: 'a token request is answered with the token of another secret',
    breaks: ['signup-token.response.same-secret'],
    transform: rewrite({ operation: 'signup-token', status: 200 }, answerForAnotherSecret),
  },
  {
    name: 'token-without-name',
    description: 'a signup token lacks its required name',
    breaks: ['signup-token.token.required'],
    transform: mutate.token((t) => delete t.name),
  },
  {
    name: 'token-null-url-left-out',
    description: 'a token whose url is null leaves the required, nullable field out',
    breaks: ['signup-token.token.required'],
    transform: mutate.token((t) => t.url === null && delete t.url),
  },
  {
    name: 'token-enabled-as-string',
    description: 'enabled of a live token is the string "true", not a boolean',
    breaks: ['signup-token.token.types'],
    transform: mutate.token((t) => t.enabled === true && (t.enabled = 'true')),
  },
  {
    name: 'token-users-as-object',
    description: 'users of a token is an object keyed by user id, not an array',
    breaks: ['signup-token.token.types'],
    transform: mutate.token((t) => Array.isArray(t.users) && (t.users = Object.fromEntries(t.users.map((u: Json) => [u.id, u])))),
  },
  {
    name: 'token-name-null',
    description: 'name of a token is null, which only url, createdBy and users may be',
    breaks: ['signup-token.token.nullability'],
    transform: mutate.token((t) => (t.name = null)),
  },
  {
    name: 'token-created-at-without-zone',
    description: 'createdAt of a token has no time-zone offset',
    breaks: ['signup-token.token.date-time'],
    transform: mutate.token((t) => (t.createdAt = zoneless(t.createdAt))),
  },
  {
    name: 'token-expires-at-http-date',
    description: 'expiresAt of a live token is an HTTP date ("Wed, 01 May 2024 12:00:00 GMT")',
    breaks: ['signup-token.token.date-time'],
    transform: mutate.token((t) => t.enabled && (t.expiresAt = new Date(t.expiresAt).toUTCString())),
  },
  {
    name: 'user-without-id',
    description: 'a user of a token lacks its required id',
    breaks: ['signup-token.user.required'],
    transform: mutate.users((u) => delete u.id),
  },
  {
    name: 'user-id-fractional',
    description: 'id of a user is a float (41.5) where an integer is due',
    breaks: ['signup-token.user.types'],
    transform: mutate.users((u) => (u.id += 0.5)),
  },
  {
    name: 'user-email-null',
    description: 'email of a user is null, which only name, username, seenAt and scimId may be',
    breaks: ['signup-token.user.nullability'],
    transform: mutate.users((u) => (u.email = null)),
  },
  {
    name: 'user-seen-at-without-zone',
    description: 'seenAt of a user has no time-zone offset',
    breaks: ['signup-token.user.date-time'],
    transform: mutate.users((u) => typeof u.seenAt === 'string' && (u.seenAt = zoneless(u.seenAt))),
  },
  {
    name: 'role-without-type',
    description: 'the role of a token lacks its required type',
    breaks: ['signup-token.role.required'],
    transform: mutate.role((r) => delete r.type),
  },
  {
    name: 'role-id-as-string',
    description: 'id of a role is a string ("3"), not an integer',
    breaks: ['signup-token.role.types'],
    transform: mutate.role((r) => (r.id = String(r.id))),
  },
  {
    name: 'role-name-null',
    description: 'name of a role is null, which only project may be',
    breaks: ['signup-token.role.nullability'],
    transform: mutate.role((r) => (r.name = null)),
  },
  {
    name: 'expired-token-enabled',
    description: 'a token whose expiresAt has passed is still enabled',
    breaks: ['signup-token.state.expired-not-enabled'],
    transform: mutate.token((t) => isExpired(t.expiresAt, Date.now()) && (t.enabled = true)),
  },
];

const PROJECTS_FAULTS: Fault[] = [
  {
    name: 'projects-served-as-html',
    description: 'the 200 answer to the projects request carries content-type text/html',
    breaks: ['projects.response.json'],
    transform: rewrite({ ...PLAIN_LIST, operation: 'projects', status: 200 }, withContentType('text/html; charset=utf-8')),
  },
  {
    name: 'projects-body-truncated',
    description: 'the JSON of the projects list stops halfway',
    breaks: ['projects.response.json'],
    errors: PROJECTS_BODY_CLAUSES,
    transform: rewrite({ ...PLAIN_LIST, operation: 'projects', status: 200 }, truncated),
  },
  {
    name: 'projects-list-without-version',
    description: 'the projects list has no version',
    breaks: ['projects.list.required'],
    transform: mutate.projects((l) => delete l.version, PLAIN_LIST),
  },
  {
    name: 'projects-version-fractional',
    description: 'version of the projects list is a float (1.5) where an integer is due',
    breaks: ['projects.list.types'],
    transform: mutate.projects((l) => (l.version = 1.5), PLAIN_LIST),
  },
  {
    name: 'projects-as-object',
    description: 'projects is an object keyed by project id, not an array',
    breaks: ['projects.list.types'],
    transform: mutate.projects((l) => (l.projects = Object.fromEntries(l.projects.map((p: Json) => [p.id, p]))), PLAIN_LIST),
  },
  {
    name: 'project-without-name',
    description: 'a project lacks its required name',
    breaks: ['projects.project.required'],
    transform: mutate.eachProject((p) => delete p.name, PLAIN_LIST),
  },
  {
    name: 'project-mode-outside-list',
    description: 'mode of a project is "public", not one of open, protected, private',
    breaks: ['projects.project.types'],
    transform: mutate.eachProject((p) => (p.mode = 'public'), PLAIN_LIST),
  },
  {
    name: 'project-created-at-null',
    description: 'createdAt of a project is null, which it may not be',
    breaks: ['projects.project.nullability'],
    transform: mutate.eachProject((p) => (p.createdAt = null), PLAIN_LIST),
  },
  {
    name: 'project-created-at-without-zone',
    description: 'createdAt of a project has no time-zone offset',
    breaks: ['projects.project.date-time'],
    transform: mutate.eachProject((p) => (p.createdAt = zoneless(p.createdAt)), PLAIN_LIST),
  },
  {
    name: 'project-updated-at-impossible-day',
    description: 'lastUpdatedAt of a project is February 30th',
    breaks: ['projects.project.date-time'],
    transform: mutate.eachProject((p) => (p.lastUpdatedAt = '2024-02-30T10:00:00Z'), PLAIN_LIST),
  },
  {
    name: 'project-health-above-100',
    description: 'health of a project is 100.5, above the scale',
    breaks: ['projects.project.health-range'],
    transform: mutate.eachProject((p) => (p.health = 100.5), PLAIN_LIST),
  },
  {
    name: 'project-health-negative',
    description: 'health of a project is -1, below the scale',
    breaks: ['projects.project.health-range'],
    transform: mutate.eachProject((p) => (p.health = -1), PLAIN_LIST),
  },
  {
    name: 'project-owners-empty',
    description: 'a project has an empty owners list instead of the system owner',
    breaks: ['projects.project.owners-not-empty'],
    transform: mutate.eachProject((p) => (p.owners = []), PLAIN_LIST),
  },
  {
    name: 'owner-of-unknown-kind',
    description: 'an owner has ownerType "team", not user, group or system',
    breaks: ['projects.owner.kind'],
    transform: mutate.owners((o) => (o.ownerType = 'team'), PLAIN_LIST),
  },
  {
    name: 'owner-without-owner-type',
    description: 'an owner lacks its required ownerType',
    breaks: ['projects.owner.kind'],
    transform: mutate.owners((o) => delete o.ownerType, PLAIN_LIST),
  },
  {
    name: 'user-owner-without-name',
    description: 'a user owner lacks its required name',
    breaks: ['projects.owner.user'],
    transform: userOwners((o) => delete o.name),
  },
  {
    name: 'group-owner-without-name',
    description: 'a group owner lacks its required name',
    breaks: ['projects.owner.group'],
    transform: groupOwners((o) => delete o.name),
  },
  {
    name: 'archived-false-server-error',
    description: 'archived=false is answered 500, a server error',
    breaks: ['projects.archived.accepted'],
    transform: rewrite({ operation: 'projects', archived: ['false'], status: 200 }, () => json(500, errorBody('InternalError', 'Something went wrong.'))),
  },
  {
    name: 'archived-true-served-as-html',
    description: 'the answer to archived=true carries content-type text/html',
    breaks: ['projects.archived.accepted'],
    transform: rewrite({ operation: 'projects', archived: ['true'], status: 200 }, withContentType('text/html; charset=utf-8')),
  },
];

/**
 * A fault of authentication: the requests `sent` selects (by credential, and by operation where it names one) get the
 * faithful answer to another credential, `answeredAs`, instead of their own.
 */
const authenticationFault = (sent: Match, answeredAs: Credential, fault: Omit<Fault, 'transform'>): Fault => ({
  ...fault,
  transform: rewrite(sent, answerAs(answeredAs)),
});

const AUTHENTICATION_FAULTS: Fault[] = [
  authenticationFault({}, 'admin', {
    name: 'no-authentication',
    description: 'every request is answered as if it carried the admin token',
    breaks: [
      'auth.signup-token.missing-header',
      'auth.signup-token.invalid-token',
      'auth.signup-token.forbidden',
      'auth.projects.missing-header',
      'auth.projects.invalid-token',
      'auth.projects.forbidden',
    ],
  }),
  authenticationFault({ credential: 'invalid' }, 'admin', {
    name: 'invalid-token-accepted',
    description: 'a token the server never issued is accepted as the admin token',
    breaks: ['auth.signup-token.invalid-token', 'auth.projects.invalid-token'],
  }),
  authenticationFault({ credential: 'none' }, 'forbidden', {
    name: 'missing-header-answered-403',
    description: 'a request without an authorization header is answered 403 NoAccessError, not 401',
    breaks: ['auth.signup-token.missing-header', 'auth.projects.missing-header'],
  }),
  authenticationFault({ credential: 'forbidden' }, 'none', {
    name: 'forbidden-answered-401',
    description: 'a valid token that lacks the permission is answered 401, not 403',
    breaks: ['auth.signup-token.forbidden', 'auth.projects.forbidden'],
  }),
  authenticationFault({ credential: 'forbidden', operation: 'signup-token' }, 'admin', {
    name: 'forbidden-let-through-on-tokens',
    description: 'the token lacking the permission may still read signup tokens',
    breaks: ['auth.signup-token.forbidden'],
  }),
  authenticationFault({ credential: 'forbidden', operation: 'projects' }, 'admin', {
    name: 'forbidden-let-through-on-projects',
    description: 'the token lacking the permission may still list projects',
    breaks: ['auth.projects.forbidden'],
  }),
  authenticationFault({ credential: 'viewer', operation: 'signup-token' }, 'admin', {
    name: 'viewer-let-through-on-tokens',
    description: "a token refused the signup token only (a viewer's) may still read signup tokens",
    breaks: ['auth.signup-token.forbidden'],
  }),
];

const ERROR_FAULTS: Fault[] = [
  {
    name: '401-body-not-json',
    description: '401 answers are the plain text "Unauthorized"',
    breaks: ['error.signup-token.401', 'error.projects.401'],
    transform: rewrite({ status: 401 }, () => rawText(401, 'text/plain', 'Unauthorized')),
  },
  {
    name: '401-token-named-unauthorized',
    description: '401 answers to token requests are named "Unauthorized", not AuthenticationRequired',
    breaks: ['error.signup-token.401'],
    transform: mutate.errors(401, (e) => (e.name = 'Unauthorized'), { operation: 'signup-token' }),
  },
  {
    name: '403-without-name',
    description: '403 error objects lack name',
    breaks: ['error.signup-token.403', 'error.projects.403'],
    transform: mutate.errors(403, (e) => delete e.name),
  },
  {
    name: '403-served-as-html',
    description: '403 answers carry content-type text/html, though their body is the JSON error object',
    breaks: ['error.signup-token.403', 'error.projects.403'],
    transform: rewrite({ status: 403 }, withContentType('text/html')),
  },
];

/** The catalogue of broken servers: each must make the suite report exactly its `breaks` failed. */
export const FAULTS: Fault[] = [...SIGNUP_TOKEN_FAULTS, ...PROJECTS_FAULTS, ...AUTHENTICATION_FAULTS, ...ERROR_FAULTS];
