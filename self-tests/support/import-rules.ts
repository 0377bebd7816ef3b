import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './run-suite.ts';

// The import rules are data: each folder's README says, in a line "May import: …", which of the suite's folders
// (and whether Playwright) its code may import. The lint (biome.json) enforces them; its overrides are these
// rules written out, so that the two cannot drift apart.

/** The folders with rules, each with a README.md of its own. */
export const ROOMS = [
  'harness/json',
  'harness/files',
  'harness/secrets',
  'harness/contracts',
  'harness/document',
  'harness/transport',
  'harness/config',
  'harness/recording',
  'harness/judging',
  'harness/evidence',
  'reporters',
  'checks',
  'readers',
  'commands',
  'run',
  'tests',
  'bin',
  'targets',
  'reference-server',
] as const;

const PLAYWRIGHT = '@playwright/test';

export interface ImportRule {
  room: string;
  /** The folders (and Playwright) its code may import. */
  may: string[];
}

/** Each folder's rule, from its README. */
export function importRules(root = PROJECT_ROOT): ImportRule[] {
  return ROOMS.map((room) => {
    const readme = readFileSync(path.join(root, room, 'README.md'), 'utf8');
    const line = /^May import: (.*)\.$/m.exec(readme)?.[1];
    if (line === undefined) throw new Error(`${room}/README.md has no line "May import: …."`);
    const may = line === "nothing of the suite's own" ? [] : [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    return { room, may };
  });
}

/** The last segment of a folder, which is what an import's path names: `harness/config` is imported as `../config/…`. */
const segment = (room: string) => room.split('/').at(-1)!;

/** The lint's overrides for these rules: every folder the rule does not allow, and Playwright unless allowed. */
export function biomeOverrides(rules: ImportRule[]): unknown[] {
  return rules.map(({ room, may }) => {
    const forbidden = ROOMS.filter((other) => other !== room && !may.includes(other)).map((other) => `**/${segment(other)}/**`);
    if (!may.includes(PLAYWRIGHT)) forbidden.push('@playwright/**');
    return {
      includes: [`${room}/**`],
      linter: {
        rules: {
          style: {
            noRestrictedImports: {
              level: 'error',
              options: {
                patterns: [
                  { group: forbidden, message: `${room}/ may import ${may.length > 0 ? may.join(', ') : "nothing of the suite's own"} (${room}/README.md)` },
                ],
              },
            },
          },
        },
      },
    };
  });
}
