// The floor any Playwright suite pays on this machine: a bare project of trivial tests, one worker, the
// built-in reporters the suite also uses (list and JUnit), run by the same CLI the same way. Written to a
// temporary folder that borrows this tree's node_modules, so that it loads the same Playwright.
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, temporaryFolder } from './run.ts';

export interface FloorProject {
  /** CLI arguments that run this project. */
  args: string[];
}

export interface Floor {
  project(name: string, passing: number, failing: number): FloorProject;
  remove(): void;
}

function spec(passing: number, failing: number): string {
  return [
    "import { expect, test } from '@playwright/test';",
    `for (let i = 0; i < ${passing}; i++) test(\`passes \${i}\`, () => {});`,
    `for (let i = 0; i < ${failing}; i++) test(\`fails \${i}\`, () => expect(i).toBe(-1));`,
    '',
  ].join('\n');
}

// The settings of playwright.config.ts that apply to trivial tests; its own reporter and global setup are
// the suite's work, which the floor leaves out.
function config(dir: string, name: string): string {
  const report = path.join(dir, `${name}-report`);
  return `export default ${JSON.stringify(
    {
      testDir: dir,
      testMatch: `${name}.spec.ts`,
      outputDir: path.join(report, 'test-results'),
      workers: 1,
      fullyParallel: true,
      retries: 0,
      forbidOnly: true,
      timeout: 15_000,
      reporter: [['list'], ['junit', { outputFile: path.join(report, 'junit.xml') }]],
      use: { trace: 'off' },
    },
    null,
    2,
  )};\n`;
}

export function createFloor(): Floor {
  const folder = temporaryFolder('conformance-floor-');
  const dir = folder.path;
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return {
    project(name, passing, failing) {
      writeFileSync(path.join(dir, `${name}.spec.ts`), spec(passing, failing));
      writeFileSync(path.join(dir, `${name}.config.ts`), config(dir, name));
      return { args: ['--config', path.join(dir, `${name}.config.ts`)] };
    },
    remove: folder.remove,
  };
}
