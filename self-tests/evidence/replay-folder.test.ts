import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ConfigError } from '../../harness/files/config-error.ts';
import { folderToTakeOnConfigError } from '../../harness/config/replay-folder.ts';
import { loadRun } from '../../run/prepare.ts';
import { bundleArchive, bundleFolder, referenceBundle, removeScratch, scratch } from '../support/in-process-bundle.ts';
import { runSuite } from '../support/run-suite.ts';

// A run clears its report folder before it reads the bundle it replays, and then writes its reports there:
// a bundle in that folder (the last run's evidence.tar.gz, say), or a report folder in the bundle's folder,
// is refused before the folder is taken, and a run stopped by that refusal leaves the folder as it was.

const good = referenceBundle();
test.afterAll(removeScratch);

/** A report folder holding the archive the last run left there. */
function lastRunsFolder(): { reportDir: string; bundle: string } {
  const reportDir = scratch();
  const bundle = path.join(reportDir, 'evidence.tar.gz');
  copyFileSync(bundleArchive(good), bundle);
  return { reportDir, bundle };
}

const PLACES: { title: string; place: () => { reportDir: string; bundle: string }; refusal: string }[] = [
  {
    title: "the last run's evidence.tar.gz in the report folder",
    place: lastRunsFolder,
    refusal: 'CONFORMANCE_REPLAY $BUNDLE lies in the report folder $REPORT',
  },
  {
    title: 'a bundle folder inside the report folder',
    place: () => {
      const folder = bundleFolder(good);
      return { reportDir: path.dirname(folder), bundle: folder };
    },
    refusal: 'CONFORMANCE_REPLAY $BUNDLE lies in the report folder $REPORT',
  },
  {
    title: 'a bundle folder that is the report folder',
    place: () => {
      const folder = bundleFolder(good);
      return { reportDir: folder, bundle: folder };
    },
    refusal: 'CONFORMANCE_REPLAY $BUNDLE lies in the report folder $REPORT',
  },
  {
    title: 'a report folder inside the bundle folder',
    place: () => {
      const folder = bundleFolder(good);
      return { reportDir: path.join(folder, 'reports', 'again'), bundle: folder };
    },
    refusal: 'CONFORMANCE_REPORT_DIR $REPORT lies in the bundle folder $BUNDLE',
  },
];

for (const { title, place, refusal } of PLACES) {
  test(`a replay of ${title} is refused, and a configuration error leaves that folder alone`, () => {
    const { reportDir, bundle } = place();
    const env = { CONFORMANCE_REPLAY: bundle, CONFORMANCE_REPORT_DIR: reportDir };
    expect(() => loadRun(env, os.tmpdir())).toThrow(ConfigError);
    expect(() => loadRun(env, os.tmpdir())).toThrow(refusal.replace('$BUNDLE', bundle).replace('$REPORT', reportDir));
    expect(folderToTakeOnConfigError(env, os.tmpdir())).toBeUndefined();
  });
}

test('a replay of a bundle beside the report folder, or through a link into it, is told apart', () => {
  const { reportDir, bundle } = lastRunsFolder();
  const beside = path.join(scratch(), 'evidence.tar.gz');
  copyFileSync(bundle, beside);
  expect(folderToTakeOnConfigError({ CONFORMANCE_REPLAY: beside, CONFORMANCE_REPORT_DIR: reportDir }, os.tmpdir())).toBe(reportDir);
  // The report folder named by a relative path, from the folder that holds it.
  const relative = { CONFORMANCE_REPLAY: bundle, CONFORMANCE_REPORT_DIR: path.basename(reportDir) };
  expect(folderToTakeOnConfigError(relative, path.dirname(reportDir))).toBeUndefined();
  // A report folder that does not exist yet, inside a bundle folder.
  const folder = bundleFolder(good);
  mkdirSync(path.join(folder, 'reports'), { recursive: true });
  expect(folderToTakeOnConfigError({ CONFORMANCE_REPLAY: folder, CONFORMANCE_REPORT_DIR: path.join(folder, 'new', 'deeper') }, os.tmpdir())).toBeUndefined();
});

test("a replay of the last run's evidence.tar.gz in its report folder exits 2 with one line, and the bundle is still there", async () => {
  const { reportDir, bundle } = lastRunsFolder();
  const before = readFileSync(bundle);
  const run = await runSuite({ CONFORMANCE_REPLAY: bundle, CONFORMANCE_REPORT_DIR: reportDir });
  expect(run.exitCode, run.stdout + run.stderr).toBe(2);
  expect(run.stderr).toBe(
    `conformance: configuration error: CONFORMANCE_REPLAY ${bundle} lies in the report folder ${reportDir}, which a run clears before it reads the bundle: move or copy the bundle out of it, or give another CONFORMANCE_REPORT_DIR\n`,
  );
  expect(readFileSync(bundle)).toEqual(before);
});

test("a replay whose evidence folder is the bundle's folder, which the replay's own bundle would replace, is refused", () => {
  const folder = bundleFolder(good);
  const env = { CONFORMANCE_REPLAY: folder, CONFORMANCE_REPORT_DIR: scratch(), CONFORMANCE_EVIDENCE_DIR: folder };
  expect(() => loadRun(env, os.tmpdir())).toThrow(
    `CONFORMANCE_EVIDENCE_DIR ${folder} and the bundle to replay ${folder} overlap: the replay's bundle would replace the one it replays; give another evidence folder`,
  );
  expect(loadRun({ ...env, CONFORMANCE_EVIDENCE_DIR: scratch() }, os.tmpdir()).targets[0].replay?.file).toBe(folder);
});

test('a report folder named by spaces alone is no folder to take on a configuration error', () => {
  expect(folderToTakeOnConfigError({ CONFORMANCE_REPORT_DIR: '   ' }, os.tmpdir())).toBeUndefined();
});
