import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { run } from '../support/package.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The suite as a clone whose development dependencies were left out (npm ci --omit=dev, NODE_ENV=production),
// as the GitHub Action installs its own checkout: the command and the sources, with every installed package but tsx.

test('verify from a clone without its development dependencies says in one line that tsx is missing, exit code 2', async () => {
  const clone = mkdtempSync(path.join(os.tmpdir(), 'conformance-clone-'));
  try {
    for (const entry of ['bin', 'package.json', 'playwright.config.ts', 'reporters', 'commands', 'harness', 'checks', 'contracts']) {
      cpSync(path.join(PROJECT_ROOT, entry), path.join(clone, entry), { recursive: true });
    }
    mkdirSync(path.join(clone, 'node_modules'));
    for (const name of readdirSync(path.join(PROJECT_ROOT, 'node_modules')).filter((n) => n !== 'tsx' && n !== '.bin')) {
      symlinkSync(path.join(PROJECT_ROOT, 'node_modules', name), path.join(clone, 'node_modules', name));
    }
    const result = await run(process.execPath, [path.join(clone, 'bin', 'admin-api-conformance.js'), 'verify', 'evidence.tar.gz'], os.tmpdir());
    expect(result.exitCode, result.output).toBe(2);
    expect(result.output.trim().split('\n'), result.output).toEqual([
      'admin-api-conformance: verify from a clone needs tsx, one of its development dependencies: run npm ci there without --omit=dev',
    ]);
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
});
