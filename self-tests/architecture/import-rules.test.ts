import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { biomeOverrides, importRules, ROOMS } from '../support/import-rules.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The folders' import rules (each folder's README.md) are what the lint enforces, and the lint fails on each
// rule broken once and on a cycle: fixtures in a scratch copy of the layout, linted with the project's biome.json.

const BIOME = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'biome');
const config = () => JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'biome.json'), 'utf8')) as { overrides: unknown[] };

test("biome.json's import rules are the folders' READMEs, written out", () => {
  const overrides = config().overrides.slice(1);
  expect(overrides).toEqual(biomeOverrides(importRules()));
});

test('every folder with rules says what it owns and what it may import, in a README of its own', () => {
  for (const { room, may } of importRules()) {
    for (const allowed of may) expect([...ROOMS, '@playwright/test'], `${room}/README.md names ${allowed}`).toContain(allowed);
    expect(may, `${room} may not import itself`).not.toContain(room);
  }
});

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

/** Lints a scratch layout of `files` (path → text) with the project's biome.json; the errors, by file. */
function lint(files: Record<string, string>): Diagnostic[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-import-rules-'));
  try {
    writeFileSync(path.join(dir, 'biome.json'), JSON.stringify({ ...config(), $schema: undefined }));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const run = spawnSync(BIOME, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    const report = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
    return report.diagnostics.filter((d) => d.category.startsWith('lint/'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How a file of `from` names a module of `to`, as the suite's code writes it. */
function specifier(from: string, to: string): string {
  if (to === '@playwright/test') return to;
  const relative = path.relative(from, to);
  return `${relative.startsWith('.') ? relative : `./${relative}`}/module.ts`;
}

test('the lint fails on each rule broken once: a folder importing one it may not, Playwright outside the run', () => {
  const fixtures: Record<string, string> = {};
  const broken: [file: string, imports: string][] = [];
  for (const { room, may } of importRules()) {
    const forbidden = [...ROOMS, '@playwright/test'].find((other) => other !== room && !may.includes(other))!;
    const file = `${room}/breaks-the-rule.ts`;
    fixtures[file] = `import { x } from '${specifier(room, forbidden)}';\nexport const y = x;\n`;
    broken.push([file, forbidden]);
    // What a folder may import passes.
    for (const allowed of may)
      fixtures[`${room}/keeps-the-rule-${allowed.replace(/\W/g, '-')}.ts`] = `import { x } from '${specifier(room, allowed)}';\nexport const y = x;\n`;
  }
  const errors = lint(fixtures);
  const restricted = (file: string) => errors.filter((e) => e.category === 'lint/style/noRestrictedImports' && e.location.path.endsWith(file));
  for (const [file, forbidden] of broken) expect(restricted(file), `${file} imports ${forbidden}`).toHaveLength(1);
  expect(errors.filter((e) => e.location.path.includes('keeps-the-rule'))).toEqual([]);
});

test('the lint fails on an import cycle, a type-only one included', () => {
  const errors = lint({
    'harness/json/a.ts': "import { b } from './b.ts';\nexport const a = () => b();\n",
    'harness/json/b.ts': "import type { A } from './c.ts';\nexport const b = (): A => 1;\n",
    'harness/json/c.ts': "import { a } from './a.ts';\nexport type A = number;\nexport const c = a;\n",
  });
  expect(
    errors
      .filter((e) => e.category === 'lint/suspicious/noImportCycles')
      .map((e) => path.basename(e.location.path))
      .sort(),
  ).toEqual(['a.ts', 'b.ts', 'c.ts']);
});
