import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { runCommandFile } from '../support/command-file.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';

// The suite as a clone whose development dependencies were left out (npm ci --omit=dev, NODE_ENV=production),
// as the GitHub Action installs its own checkout: the command and the sources, with every installed package but tsx.
// The clone's command file runs in this process (support/command-file.ts), finding its modules from where it lies.

test('verify or a misspelt command from a clone without its development dependencies is one line, exit code 2: tsx is missing, or every command is named', () => {
  const clone = mkdtempSync(path.join(os.tmpdir(), 'conformance-clone-'));
  try {
    for (const entry of ['bin', 'package.json', 'playwright.config.ts', 'reporters', 'commands', 'harness', 'checks', 'contracts']) {
      cpSync(path.join(PROJECT_ROOT, entry), path.join(clone, entry), { recursive: true });
    }
    mkdirSync(path.join(clone, 'node_modules'));
    for (const name of readdirSync(path.join(PROJECT_ROOT, 'node_modules')).filter((n) => n !== 'tsx' && n !== '.bin')) {
      symlinkSync(path.join(PROJECT_ROOT, 'node_modules', name), path.join(clone, 'node_modules', name));
    }
    const bin = path.join(clone, 'bin', 'admin-api-conformance.js');
    const result = runCommandFile(bin, ['verify', 'evidence.tar.gz']);
    expect([result.exitCode, result.stdout]).toEqual([2, '']);
    expect(result.stderr.trim().split('\n'), result.stderr).toEqual([
      'admin-api-conformance: verify from a clone needs tsx, one of its development dependencies: run npm ci there without --omit=dev',
    ]);
    // The nearest command is found by the suite's TypeScript, which this clone cannot load: the line names them all.
    const typo = runCommandFile(bin, ['verfiy', 'evidence.tar.gz']);
    expect([typo.exitCode, typo.stdout]).toEqual([2, '']);
    expect(typo.stderr.trim().split('\n'), typo.stderr).toEqual([
      'admin-api-conformance: unknown command "verfiy": the commands are run, merge, verify, diff, document, history, trend, reference, serve and help, and come first; Playwright\'s test filters go after --',
    ]);
    // The same file in this repository, whose tsx is installed, finds the command meant: the clone lacks only tsx.
    expect(runCommandFile(path.join(PROJECT_ROOT, 'bin', 'admin-api-conformance.js'), ['verfiy']).stderr).toContain('did you mean "verify"?');
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
});
