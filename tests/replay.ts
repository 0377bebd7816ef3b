import { expect as baseExpect, type TestDetails, type TestInfo } from '@playwright/test';
import type { Clause } from '../harness/contracts/catalogue.ts';
import { replayFile, type Replay } from './replay-file.ts';

// A test replays the verdict the judge gave its clause in the runner; it judges nothing itself.

/** The clauses to replay, one test each: the catalogue global setup read or, where none ran (`--list`), the catalogue file. */
export function clausesToReplay(): Clause[] {
  return replayFile()?.catalogue ?? (require('../harness/contracts/catalogue') as typeof import('../harness/contracts/catalogue')).loadCatalogue();
}

export const expect = baseExpect.extend({
  toConform(replay: Replay, clause: Clause) {
    const pass = replay.status !== 'failed' && replay.status !== 'known-deviation';
    return {
      pass,
      name: 'toConform',
      message: () => (pass ? `clause ${clause.id} was expected to be violated, and it was not` : (replay.message ?? `clause ${clause.id} is violated`)),
    };
  },
});

/** Replays the judge's verdict on one clause in its test. */
export function replay(clause: Clause, testInfo: TestInfo): void {
  const file = replayFile();
  if (!file) throw new Error('no verdicts: run the suite through its Playwright config, whose global setup has the target judged');
  const replay = file.replays[testInfo.project.name]?.[clause.id];
  if (!replay) throw new Error(`the judge gave no verdict on ${clause.id} for the target "${testInfo.project.name}"`);
  const { status, message } = replay;
  // A clause met has nothing to say; an assertion would only cost each test a captured stack.
  if (status === 'passed') return;
  // Not exercised, observed (the document leaves an INFO clause open: no runner may count it passed), or not judged.
  if (status === 'not-exercised' || status === 'observed' || status === 'not-judged') return testInfo.skip(true, message);
  if (status === 'errored') throw new Error(message);
  // A failure the target's deviations file accepts is an expected failure: JUnit and Playwright's own summary
  // then agree with the gate, and the worker is not restarted for it.
  if (status === 'known-deviation') testInfo.fail(true, `known deviation: ${replay.deviation}`);
  expect(replay).toConform(clause);
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
