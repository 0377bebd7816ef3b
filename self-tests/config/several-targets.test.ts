import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTargets } from '../../harness/config/targets.ts';

// A target's name becomes the name of its report folder, below the run's `targets/`: no name may lead out
// of it, since a run clears the folders it writes to.
const NAMES = ['..', '.', '.hidden', '../../etc', 'a/../../b', '-..-'];

test('no target name leads its report folder out of the run’s targets/ folder', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-names-'));
  try {
    const files = NAMES.map((name, i) => {
      const file = path.join(dir, `t${i}.yaml`);
      writeFileSync(file, `name: ${JSON.stringify(name)}\nbaseUrl: http://127.0.0.1:9\nadminToken: an-admin-token-${i}\n`);
      return file;
    });
    const partner = path.join(dir, 'staging.yaml');
    writeFileSync(partner, 'name: staging\nbaseUrl: http://127.0.0.1:9\nadminToken: the-admin-token-of-staging\n');
    for (const file of files) {
      const reportDir = path.join(dir, 'deep', 'report');
      const run = loadTargets({ CONFORMANCE_TARGETS: `${file},${partner}`, CONFORMANCE_REPORT_DIR: reportDir }, dir);
      expect(run.reportDir).toBe(reportDir);
      for (const target of run.targets) expect(path.dirname(target.reportDir)).toBe(path.join(reportDir, 'targets'));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
