import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { judgingEnded, startJudging, stopJudging } from '../../harness/judging.ts';
import { runVerdicts } from '../../harness/replay.ts';
import { VERDICTS_VARIABLE, awaitVerdicts, inheritedCatalogue, openVerdictsFolder, readyVerdicts } from '../../harness/verdicts-file.ts';
import { loadCatalogue } from '../../harness/catalogue.ts';
import { judgeRun } from '../../harness/global-setup.ts';
import { recordingReference, withServer } from '../support/hostile-servers.ts';
import { configFor } from '../support/judge-against.ts';

// The runner judges while Playwright starts the first worker (harness/judging.ts); the tests take the
// catalogue at once and their verdicts once the judge leaves them (harness/verdicts-file.ts).

test('the catalogue is there at once; the verdicts only once published, and nothing stays after the folder is removed', () => {
  const folder = openVerdictsFolder(loadCatalogue());
  try {
    expect(inheritedCatalogue({ [VERDICTS_VARIABLE]: folder.path })?.map((c) => c.id)).toEqual(loadCatalogue().map((c) => c.id));
    expect(readyVerdicts(folder.path)).toBeUndefined();
    folder.publish({ stopped: 'the run was stopped' });
    expect(readyVerdicts(folder.path)).toEqual({ stopped: 'the run was stopped' });
  } finally {
    folder.remove();
  }
  expect(existsSync(folder.path)).toBe(false);
});

test('a test that asks before the verdicts exist waits for them, without its timeout, which it gets back with the wait added', async () => {
  const folder = openVerdictsFolder(loadCatalogue());
  const before = process.env[VERDICTS_VARIABLE];
  process.env[VERDICTS_VARIABLE] = folder.path;
  try {
    const timeouts: number[] = [];
    const testInfo = { timeout: 15_000, setTimeout: (ms: number) => void timeouts.push(ms) };
    setTimeout(() => folder.publish({ targets: {} }), 300);
    expect(await runVerdicts(testInfo)).toEqual({ targets: {} });
    expect(timeouts[0]).toBe(0);
    expect(timeouts[1]).toBeGreaterThanOrEqual(15_300);
    expect(timeouts).toHaveLength(2);
    // Once there, the verdicts are read at once, and the timeout left alone.
    expect(await runVerdicts(testInfo)).toEqual({ targets: {} });
    expect(timeouts).toHaveLength(2);
  } finally {
    process.env[VERDICTS_VARIABLE] = before;
    if (before === undefined) delete process.env[VERDICTS_VARIABLE];
    folder.remove();
  }
});

/** A judging that records when it started and ends when told, or when its signal aborts. */
function watchedJudging(): { startedAt(): number | undefined; finish(): void; aborted(): boolean } {
  let started: number | undefined;
  let finish = () => {};
  let signal: AbortSignal | undefined;
  startJudging((s) => {
    started = Date.now();
    signal = s;
    return new Promise((resolve) => {
      finish = () => resolve({});
      if (s.aborted) resolve({ problem: 'stopped' });
      s.addEventListener('abort', () => resolve({ problem: 'stopped' }), { once: true });
    });
  });
  return { startedAt: () => started, finish: () => finish(), aborted: () => signal?.aborted ?? false };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 50));

/** Makes a child process, as Playwright forks a worker, and waits for it to end. */
const child = () => new Promise((resolve) => spawn(process.execPath, ['-e', '0']).on('close', resolve));

test('judging starts once a child process (the first worker) is made, not before', async () => {
  const judging = watchedJudging();
  await tick();
  expect(judging.startedAt()).toBeUndefined();
  const forkedAt = Date.now();
  await child();
  expect(judging.startedAt()).toBeGreaterThanOrEqual(forkedAt);
  judging.finish();
  expect(await judgingEnded()).toEqual({});
});

test('judging starts when its end is asked for, should no worker ever be made (a run whose filters leave no test)', async () => {
  const judging = watchedJudging();
  const end = judgingEnded();
  expect(judging.startedAt()).toBeDefined();
  judging.finish();
  expect(await end).toEqual({});
});

test('stopping the judging aborts what it does and waits for its end, as the reporter does for a run that timed out', async () => {
  const judging = watchedJudging();
  await child();
  expect(judging.startedAt()).toBeDefined();
  await stopJudging();
  expect(judging.aborted()).toBe(true);
  expect(await judgingEnded()).toEqual({ problem: 'stopped' });
});

test('a judging stopped before it started never starts: an interrupted run sends nothing more', async () => {
  const judging = watchedJudging();
  await stopJudging();
  expect(await judgingEnded()).toBeUndefined();
  await child();
  expect(judging.startedAt()).toBeUndefined();
});

test('Ctrl+C (SIGINT) aborts the judging, started or not', async () => {
  const judging = watchedJudging();
  await child();
  process.emit('SIGINT');
  expect(judging.aborted()).toBe(true);
  expect(await judgingEnded()).toEqual({ problem: 'stopped' });
  const early = watchedJudging();
  process.emit('SIGINT');
  expect(await judgingEnded()).toBeUndefined();
  expect(early.startedAt()).toBeUndefined();
});

test("a fault of the suite's own while judging still leaves the tests a file, and the run its error", async () => {
  await withServer(recordingReference(), async (target) => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'conformance-judge-fault-'));
    const folder = openVerdictsFolder(loadCatalogue());
    try {
      // A report folder that is a file: the request log cannot be written.
      const reportDir = path.join(scratch, 'a-file');
      writeFileSync(reportDir, '');
      const end = await judgeRun([{ ...configFor(target.url), reportDir }], false, folder, new AbortController().signal);
      expect(String(end.error)).toContain('ENOTDIR');
      expect(readyVerdicts(folder.path)).toEqual({ stopped: 'the suite failed while judging: see the error the run ends with' });
      // With not even the stop written (the folder gone here, a full disk elsewhere), the judging still ends with the error.
      const gone = openVerdictsFolder(loadCatalogue());
      gone.remove();
      const without = await judgeRun([{ ...configFor(target.url), reportDir }], false, gone, new AbortController().signal);
      expect(String(without.error)).toContain('ENOTDIR');
    } finally {
      folder.remove();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

test('a test waiting for verdicts the runner could not write stops waiting once the folder is gone', async () => {
  const folder = openVerdictsFolder(loadCatalogue());
  setTimeout(() => folder.remove(), 100);
  await expect(awaitVerdicts(folder.path)).rejects.toThrow(`the runner left no verdicts in ${folder.path}: the run's error says why`);
});
