import { test as base, type TestDetails, type TestInfo } from '@playwright/test';
import type { Clause } from '../harness/contracts/catalogue.ts';
import { replayFile, SHARE_ANNOTATION, STATUS_ANNOTATION } from './replay-file.ts';

// A test replays the verdict the judge gave its clause in the runner; it judges nothing itself.

/**
 * The clauses' tests. A replay opens no page and records no trace or screenshot: Playwright's fixture that records
 * them around every test (its own `_setupArtifacts`, overridden here by name) would also write an error-context.md
 * prompt file for each failure and print its path, to a reader of the suite's verdicts only noise. The one it is
 * replaced with records nothing; a self-test (self-tests/suite/terminal-lines.test.ts) notices should Playwright
 * rename it.
 */
export const test = base.extend<{ _setupArtifacts: undefined }>({ _setupArtifacts: async ({}, use) => use(undefined) });

/** The clauses to replay, one test each: the catalogue global setup read or, where none ran (`--list`), the catalogue file. */
export function clausesToReplay(): Clause[] {
  return replayFile()?.catalogue ?? (require('../harness/contracts/catalogue') as typeof import('../harness/contracts/catalogue')).loadCatalogue();
}

/**
 * A verdict replayed has no line of code of its own to point at: its error is its words alone, the violations with
 * what was received and required and a curl line, without the stack frames and source lines of this file.
 */
function replayedError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

/**
 * Replays the judge's verdict on one clause in its test, and names it in the suite's words (the `status` annotation,
 * and for a fleet how many targets gave it) for every reporter, the suite's terminal lines among them.
 */
export function replay(clause: Clause, testInfo: TestInfo): void {
  const file = replayFile();
  if (!file) throw new Error('no verdicts: run the suite through its Playwright config, whose global setup has the target judged');
  const replay = file.replays[testInfo.project.name]?.[clause.id];
  if (!replay) throw new Error(`the judge gave no verdict on ${clause.id} for the target "${testInfo.project.name}"`);
  const { status, message } = replay;
  testInfo.annotations.push({ type: STATUS_ANNOTATION, description: status });
  if (replay.share) testInfo.annotations.push({ type: SHARE_ANNOTATION, description: replay.share });
  if (status === 'passed') return;
  // Not exercised, observed (the document leaves an INFO clause open: no runner may count it passed), or not judged.
  if (status === 'not-exercised' || status === 'observed' || status === 'not-judged') return testInfo.skip(true, message);
  // A failure the target's deviations file accepts is an expected failure: JUnit and Playwright's own summary
  // then agree with the gate, and the worker is not restarted for it.
  if (status === 'known-deviation') testInfo.fail(true, `known deviation: ${replay.deviation}`);
  throw replayedError(message ?? `clause ${clause.id} is ${status}`);
}

/** The title of a clause's test: its sentence, and its id, which puts it in every report line and JUnit name and lets `--grep <id>` select it. */
export const titleOf = (clause: Clause) => `${clause.title} [${clause.id}]`;

/** The details of a clause's test: its level as a tag, its id and section as annotations. */
export const detailsOf = (clause: Clause): TestDetails => ({
  tag: [`@${clause.level}`],
  annotation: [
    { type: 'clause', description: clause.id },
    { type: 'section', description: clause.section },
  ],
});
