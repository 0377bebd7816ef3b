// Projects lists (section 2.4) for the benchmarks: deterministic, every field of 2.5 in use, owners of
// all three kinds of 2.6, and optionally broken entries (1% of them, or all), each broken in exactly one way.
import { pick, seeded, type Random } from '../self-tests/support/seeded.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const EPOCH_MS = Date.UTC(2024, 0, 1);
const MODES = ['open', 'protected', 'private'];
const OFFSETS_MINUTES = [0, 0, 0, 120, -300, 330, -570];

const int = (random: Random, max: number) => Math.floor(random() * (max + 1));
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An RFC 3339 date-time with the offsets real servers send: Z, ±hh:mm, with or without fractions. */
function dateTime(random: Random, daysBack: number): string {
  const offset = pick(random, OFFSETS_MINUTES);
  const local = new Date(EPOCH_MS - int(random, daysBack) * DAY_MS - int(random, DAY_MS) + offset * 60_000);
  const fraction = random() < 0.5 ? `.${pad(local.getUTCMilliseconds(), 3)}` : '';
  const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${local.toISOString().slice(0, 19)}${fraction}${zone}`;
}

function owner(random: Random, i: number): Record<string, unknown> {
  const kind = random();
  if (kind < 0.6)
    return {
      ownerType: 'user',
      name: `Owner ${i}`,
      email: random() < 0.8 ? `owner${i}@example.com` : null,
      imageUrl: random() < 0.7 ? `https://gravatar.invalid/avatar/${i}` : null,
    };
  return { ownerType: 'group', name: `Team ${i % 97}` };
}

// A project with no user or group owner lists the system owner instead (2.5, owners).
function owners(random: Random, i: number): Record<string, unknown>[] {
  if (random() < 0.1) return [{ ownerType: 'system' }];
  return Array.from({ length: 1 + int(random, 2) }, (_, k) => owner(random, i * 3 + k));
}

function project(random: Random, i: number): Record<string, unknown> {
  const updated = random() < 0.8 ? dateTime(random, 30) : null;
  return {
    id: `project-${pad(i, 6)}`,
    name: `Project ${i}`,
    description: random() < 0.7 ? `Feature flags of team ${i % 97}` : null,
    health: Math.round(random() * 1000) / 10,
    featureCount: int(random, 200),
    staleFeatureCount: int(random, 20),
    potentiallyStaleFeatureCount: int(random, 20),
    memberCount: int(random, 50),
    createdAt: dateTime(random, 1500),
    updatedAt: updated,
    lastUpdatedAt: updated,
    archivedAt: null,
    favorite: random() < 0.2,
    mode: pick(random, MODES),
    defaultStickiness: 'default',
    avgTimeToProduction: Math.round(random() * 300) / 10,
    lastReportedFlagUsage: random() < 0.6 ? dateTime(random, 7) : null,
    owners: owners(random, i),
  };
}

/** One way to break a project, named after what the suite must report for it. */
interface Breakage {
  name: string;
  clause: string;
  apply(project: Record<string, unknown>): void;
}

export const BREAKAGES: Breakage[] = [
  { name: 'id missing', clause: 'projects.project.required', apply: (p) => void delete p.id },
  { name: 'name a number', clause: 'projects.project.types', apply: (p) => void (p.name = 42) },
  { name: 'mode outside the enum', clause: 'projects.project.types', apply: (p) => void (p.mode = 'secret') },
  { name: 'favorite null', clause: 'projects.project.nullability', apply: (p) => void (p.favorite = null) },
  { name: 'offset without a colon', clause: 'projects.project.date-time', apply: (p) => void (p.createdAt = '2024-05-01T12:00:00+0200') },
  { name: 'bare hour offset', clause: 'projects.project.date-time', apply: (p) => void (p.createdAt = '2024-05-01T12:00:00+02') },
  { name: 'space instead of T', clause: 'projects.project.date-time', apply: (p) => void (p.createdAt = '2024-05-01 12:00:00Z') },
  { name: 'impossible date', clause: 'projects.project.date-time', apply: (p) => void (p.createdAt = '2023-02-29T12:00:00Z') },
  { name: 'health above 100', clause: 'projects.project.health-range', apply: (p) => void (p.health = 140) },
  { name: 'owners empty', clause: 'projects.project.owners-not-empty', apply: (p) => void (p.owners = []) },
  { name: 'unknown ownerType', clause: 'projects.owner.kind', apply: (p) => void (p.owners = [{ ownerType: 'team', name: 'x' }]) },
  { name: 'user owner without name', clause: 'projects.owner.user', apply: (p) => void (p.owners = [{ ownerType: 'user', email: null }]) },
  { name: 'group name a number', clause: 'projects.owner.group', apply: (p) => void (p.owners = [{ ownerType: 'group', name: 7 }]) },
];

/** How much of a list is broken: nothing, 1% of the entries (at least one), or every entry. */
export type BrokenShare = 'none' | 'one-percent' | 'every';

/** Positions of the broken entries, spread evenly over the list. */
export function brokenPositions(size: number, share: BrokenShare): number[] {
  const count = share === 'none' ? 0 : share === 'every' ? size : Math.max(1, Math.ceil(size / 100));
  return Array.from({ length: count }, (_, k) => Math.floor(((k + 0.5) * size) / count));
}

export interface ProjectsList {
  body: { version: number; projects: Record<string, unknown>[] };
  /** Position of each broken entry and the clause its breakage falls under. */
  broken: { position: number; clause: string }[];
}

/** A projects list of `size` projects, the broken ones each breaking the document in exactly one way. */
export function projectsList(size: number, share: BrokenShare = 'none'): ProjectsList {
  const random = seeded(0x5eed + size);
  const projects = Array.from({ length: size }, (_, i) => project(random, i));
  const positions = brokenPositions(size, share);
  positions.forEach((position, k) => BREAKAGES[k % BREAKAGES.length].apply(projects[position]));
  return { body: { version: 1, projects }, broken: positions.map((position, k) => ({ position, clause: BREAKAGES[k % BREAKAGES.length].clause })) };
}

// Projects serialised per slice: a list of hundreds of megabytes never exists as objects all at once.
const SLICE = 10_000;

/** The JSON text of `projectsList(size).body` (a valid list), built slice by slice. */
export function projectsListText(size: number): string {
  const random = seeded(0x5eed + size);
  const slices: string[] = [];
  for (let start = 0; start < size; start += SLICE) {
    const projects = Array.from({ length: Math.min(SLICE, size - start) }, (_, k) => project(random, start + k));
    slices.push(JSON.stringify(projects).slice(1, -1));
  }
  return `{"version":1,"projects":[${slices.join(',')}]}`;
}

/** How many projects make a valid list of about `bytes` bytes, from the mean size of a sample. */
export function projectsForBytes(bytes: number): number {
  const sample = 10_000;
  return Math.floor((bytes / Buffer.byteLength(projectsListText(sample))) * sample);
}

/** Every date-time string of a list, as the suite's RFC 3339 check sees them. */
export function dateTimesOf(body: ProjectsList['body']): string[] {
  const fields = ['createdAt', 'updatedAt', 'lastUpdatedAt', 'archivedAt', 'lastReportedFlagUsage'];
  return body.projects.flatMap((p) => fields.map((f) => p[f]).filter((v): v is string => typeof v === 'string'));
}
