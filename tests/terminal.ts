import type { Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { visible } from '../harness/files/visible.ts';
import type { ClauseStatus } from '../reporters/conformance-result.ts';
import { STATUS_LABEL } from '../reporters/sections.ts';
import { STATUSES } from '../reporters/statuses.ts';
import { SHARE_ANNOTATION, STATUS_ANNOTATION } from './replay-file.ts';

// The terminal's lines while a run's tests replay its verdicts, in the suite's words, for someone who never used
// Playwright: one per clause, its status and its id. No test file locations, stack frames or error-context files;
// a known deviation is no failure, and no tally contradicts the closing block (run/report-run.ts), which follows
// with the counts, what failed and where the reports are. A user's --reporter replaces these lines (Playwright's
// own list reporter is `-- --reporter=list`); the verdict and exit code are the suite's whatever the reporters.

/** What one clause's line says. */
export interface ClauseLine {
  id: string;
  title: string;
  status: ClauseStatus;
  /** The target, where the run has a Playwright project per target (up to eight targets side by side). */
  target?: string;
  /** For a fleet: how many of its targets gave the status. */
  share?: string;
  /** Why the test replayed no verdict, when it did not (its first line). */
  problem?: string;
}

/** A mark for the eye, from the one table of statuses: ✘ where the run falls short (Playwright's worker restarts after each), ~ for an excused failure. */
const MARK = (status: ClauseStatus) => STATUSES[status].mark;

const WIDTH = Math.max(...Object.values(STATUS_LABEL).map((label) => label.length));

/** A clause's line: mark, status in the suite's words, target, id, how many targets of a fleet, its sentence. */
export function clauseLine(c: ClauseLine): string {
  const target = c.target ? `${visible(c.target)}: ` : '';
  const share = c.share ? ` (${c.share})` : '';
  const problem = c.problem ? `: ${visible(c.problem)}` : '';
  return `  ${MARK(c.status)} ${STATUS_LABEL[c.status].padEnd(WIDTH)}  ${target}${c.id}${share}  ${c.title}${problem}`;
}

const annotation = (annotations: TestResult['annotations'], type: string) => annotations.find((a) => a.type === type)?.description;

const isStatus = (word: string | undefined): word is ClauseStatus => word !== undefined && Object.hasOwn(STATUS_LABEL, word);

/**
 * A test's line, read off its annotations: the status its replay named. A test that replayed none (it could not
 * read its verdict, or Playwright stopped it first) is errored with Playwright's first line, or not judged.
 */
export function lineOf(test: Pick<TestCase, 'title' | 'annotations' | 'parent'>, result: Pick<TestResult, 'annotations' | 'status' | 'error'>): ClauseLine {
  const annotations = [...test.annotations, ...result.annotations];
  const id = annotation(annotations, 'clause') ?? test.title;
  const title = test.title.endsWith(` [${id}]`) ? test.title.slice(0, -` [${id}]`.length) : test.title;
  const target = test.parent.project()?.name || undefined;
  const replayed = annotation(annotations, STATUS_ANNOTATION);
  if (isStatus(replayed)) return { id, title, status: replayed, target, share: annotation(annotations, SHARE_ANNOTATION) };
  if (result.status === 'skipped' || result.status === 'interrupted') return { id, title, status: 'not-judged', target };
  return { id, title, status: 'errored', target, problem: firstLine(result.error?.message) ?? result.status };
}

/** Playwright colours some of its own messages: the colour codes go, the words stay. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const firstLine = (text: string | undefined) => text?.replace(ANSI, '').split('\n')[0];

export default class TerminalReporter implements Reporter {
  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    const count = suite.allTests().length;
    if (count > 0) process.stdout.write(`\n${count} clause${count === 1 ? '' : 's'} judged:\n`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    process.stdout.write(`${clauseLine(lineOf(test, result))}\n`);
  }

  /** What stopped the run before its tests (the line global setup ends with, say), as said: no stack frames. */
  onError(error: TestError): void {
    process.stderr.write(`${visible((error.message ?? error.value ?? 'an error').replace(ANSI, ''), 'block')}\n`);
  }
}
