import { REFERENCE_FIXTURES } from './fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;
const BASE_URL_PLACEHOLDER = 'http://127.0.0.1';

export interface Seed {
  tokens: Record<string, Record<string, unknown>>;
  activeProjects: Record<string, unknown>[];
  archivedProjects: Record<string, unknown>[];
}

const at = (now: number, offsetDays: number) => new Date(now + offsetDays * DAY).toISOString();

const viewerRole = { id: 3, type: 'root', name: 'Viewer', description: 'Users with the viewer role can only read root resources.', project: null };

function users(now: number) {
  return [
    {
      id: 41,
      name: 'Ada Signup',
      email: 'ada@example.com',
      username: null,
      imageUrl: 'https://gravatar.invalid/ada',
      inviteLink: '',
      loginAttempts: 0,
      emailSent: true,
      rootRole: 3,
      seenAt: at(now, -1),
      createdAt: at(now, -5),
      accountType: 'User',
      isAPI: false,
      permissions: [],
      scimId: null,
    },
    { id: 42, name: null, email: 'brook@example.com', seenAt: null, createdAt: at(now, -2) },
  ];
}

function signupTokens(now: number, baseUrl: string): Seed['tokens'] {
  const [withUsers, bare, expired, disabledEarly, projectRole] = REFERENCE_FIXTURES.signupTokens;
  const link = (secret: string) => `${baseUrl}/new-user?invite=${secret}`;
  const common = { createdAt: at(now, -10), role: viewerRole };
  return {
    [withUsers]: {
      ...common,
      secret: withUsers,
      url: link(withUsers),
      name: 'Team onboarding',
      enabled: true,
      expiresAt: at(now, 30),
      createdBy: 'admin',
      users: users(now),
    },
    [bare]: { ...common, secret: bare, url: null, name: 'Unused invite', enabled: true, expiresAt: at(now, 7), createdBy: null, users: [] },
    [expired]: {
      ...common,
      secret: expired,
      url: link(expired),
      name: 'Last quarter',
      enabled: false,
      expiresAt: at(now, -1),
      createdBy: 'admin',
      users: null,
    },
    [disabledEarly]: {
      ...common,
      secret: disabledEarly,
      url: link(disabledEarly),
      name: 'Paused invite',
      enabled: false,
      expiresAt: at(now, 3),
      createdBy: 'ops@example.com',
      users: [],
    },
    [projectRole]: {
      ...common,
      secret: projectRole,
      url: link(projectRole),
      name: 'Project invite',
      enabled: true,
      expiresAt: at(now, 1),
      createdBy: 'admin',
      role: { id: 5, type: 'project', name: 'Member', project: 'payments' },
    },
  };
}

function activeProjects(now: number): Record<string, unknown>[] {
  return [
    {
      id: 'default',
      name: 'Default',
      description: 'Default project',
      health: 100,
      featureCount: 4,
      staleFeatureCount: 0,
      potentiallyStaleFeatureCount: 1,
      memberCount: 0,
      createdAt: at(now, -400),
      updatedAt: at(now, -3),
      lastUpdatedAt: at(now, -3),
      archivedAt: null,
      favorite: false,
      mode: 'open',
      defaultStickiness: 'default',
      avgTimeToProduction: 0,
      lastReportedFlagUsage: null,
      owners: [{ ownerType: 'system' }],
    },
    {
      id: 'payments',
      name: 'Payments',
      description: null,
      health: 0,
      featureCount: 12,
      memberCount: 3,
      createdAt: at(now, -90),
      lastUpdatedAt: null,
      archivedAt: null,
      favorite: true,
      mode: 'protected',
      lastReportedFlagUsage: at(now, -0.5),
      owners: [{ ownerType: 'user', name: 'Grace Owner', email: 'grace@example.com', imageUrl: null }],
    },
    {
      id: 'search',
      name: 'Search & Discovery',
      health: 87.5,
      featureCount: 2,
      memberCount: 5,
      createdAt: at(now, -30),
      mode: 'private',
      owners: [
        { ownerType: 'group', name: 'Search team' },
        { ownerType: 'user', name: 'Lin', email: null, imageUrl: 'https://gravatar.invalid/lin' },
      ],
    },
  ];
}

function archivedProjects(now: number): Record<string, unknown>[] {
  return [
    { id: 'legacy', name: 'Legacy checkout', createdAt: at(now, -700), archivedAt: at(now, -20), mode: 'open', health: 50, owners: [{ ownerType: 'system' }] },
  ];
}

/** The reference data, computed against the time of each request so that "expired" stays expired. */
export function buildSeed(now: number, baseUrl: string = BASE_URL_PLACEHOLDER): Seed {
  return { tokens: signupTokens(now, baseUrl), activeProjects: activeProjects(now), archivedProjects: archivedProjects(now) };
}
