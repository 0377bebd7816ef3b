import type { FullResult, Reporter, Suite } from '@playwright/test/reporter';
import { loadCatalogue } from '../harness/contracts/catalogue.ts';
import { visible } from '../harness/files/visible.ts';
import { projectsOf } from '../run/fleet.ts';
import { replaysOfRun } from '../run/replays.ts';
import { buildReports, reportRun, withdrawn, writeReports, type RunEnd, type Selection } from '../run/report-run.ts';
import type { RunResult } from '../run/result.ts';
import { headline, VERDICT_LABEL } from '../reporters/sections.ts';
import { leaveReplayFile } from './replay-file.ts';
import { endOf, judgingEnd, streamedEnd, thisRun, type Streamed } from './runner.ts';

// The reporter carries the engine's verdicts into Playwright's run and its exit code back to the command: once
// the tests are chosen (onBegin), the engine builds the reports of the clauses they select and writes them, and
// the workers replay what those reports say; at the end, the command is told the exit code the engine gave.
// It decides nothing itself.

/**
 * What the command that started the run (bin/admin-api-conformance.js) is told: that the run began, then its exit code
 * and the word its reports are headed with, which the command names when a stop came after they were written.
 */
function tellTheCommand(message: { started: true } | { verdict: string; exitCode: number; headline: string }): void {
  if (process.connected) process.send?.(message);
}

/** The word the run's reports are headed with: its matrix's, or its one target's. */
const headlineOf = (result: RunResult) =>
  result.matrix ? headline(result.matrix) : result.targets[0] ? headline(result.targets[0].report) : VERDICT_LABEL[result.verdict];

/** The clauses the chosen tests select, for each target: by its project, or one choice for a single target or a fleet. */
function selectionOf(suite: Suite): Selection {
  const chosen = new Map<string, Set<string>>();
  for (const test of suite.allTests()) {
    const project = test.parent.project()?.name ?? '';
    const clause = test.annotations.find((a) => a.type === 'clause')?.description;
    if (clause === undefined) continue;
    if (!chosen.has(project)) chosen.set(project, new Set());
    chosen.get(project)!.add(clause);
  }
  const projects = projectsOf(thisRun().run);
  return (target) => chosen.get(projects ? target.name : '') ?? new Set();
}

export default class ConformanceReporter implements Reporter {
  private written?: Promise<RunResult>;
  private removeReplays?: () => void;

  constructor() {
    tellTheCommand({ started: true });
    // The command gone (killed with SIGKILL, which it cannot pass on), the run stops as for SIGINT, its report
    // marked interrupted, rather than go on alone, holding the report folder, its verdict read by no one.
    if (process.connected) {
      process.once('disconnect', () => process.kill(process.pid, 'SIGINT'));
      process.channel?.unref();
    }
  }

  printsToStdio(): boolean {
    return true;
  }

  /**
   * The tests are chosen and global setup has ended: the reports of the clauses they select are built now, before
   * any worker starts (the workers replay what they say), and written meanwhile; a fleet streamed in global setup
   * has them written already. A judging that did not end with verdicts (it failed, or never ran) leaves the reports
   * to onEnd.
   */
  onBegin(_config: unknown, suite: Suite): void {
    const { judged, streamed } = thisRun();
    if (streamed) this.written = this.carry(streamed, suite);
    else if (judged?.status === 'passed') this.written = this.write(endOf(judged, selectionOf(suite)));
  }

  /**
   * A fleet's run, its reports written in global setup: its tests replay each clause's fleet replay. Had anything
   * narrowed the tests to fewer than every clause judged, the run could not stand behind its verdicts on those
   * left out: its reports are taken back, no verdict.
   */
  private async carry({ result, said, replays }: Streamed, suite: Suite): Promise<RunResult> {
    if (said !== undefined || result.reason !== undefined) return result;
    const { run, startedAt, output } = thisRun();
    const chosen = selectionOf(suite)(run.targets[0]);
    const left = loadCatalogue().filter((c) => chosen?.has(c.id) === false).length;
    if (left > 0) {
      const reason = `Playwright chose the tests of fewer clauses than were judged (${left} left out, by an option the suite does not know to narrow them): the reports are taken back; to judge some clauses only, choose them with --grep`;
      output.drop();
      output.err(`conformance: no verdict: ${reason}\n`);
      return withdrawn(run, result, reason, Date.now() - startedAt, output);
    }
    this.removeReplays = leaveReplayFile({
      reportDir: run.reportDir,
      runTimeoutMs: run.targets[0].runTimeoutMs,
      catalogue: loadCatalogue(),
      replays: { '': replays.replays() },
    });
    return result;
  }

  private write(end: RunEnd): Promise<RunResult> {
    const { run, output } = thisRun();
    const reports = buildReports(run, end);
    const problems = end.judgement?.targets.map((t) => t.problem) ?? [];
    const targets = run.targets.map((t, i) => ({ name: t.name, report: reports[i], problem: problems[i] }));
    const projects = projectsOf(run);
    this.removeReplays = leaveReplayFile({
      reportDir: run.reportDir,
      projects,
      runTimeoutMs: run.targets[0].runTimeoutMs,
      catalogue: loadCatalogue(),
      replays: replaysOfRun(targets, projects),
    });
    return writeReports(run, reports, end, output);
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] }> {
    const current = thisRun();
    try {
      const outcome = (await this.written) ?? (await this.unchosen(result));
      current.output.flush();
      return this.settle(outcome.verdict, outcome.exitCode, headlineOf(outcome));
    } catch (error) {
      current.output.flush();
      // A report that cannot be written (a full disk, a folder taken away) leaves the run without a verdict: one
      // line, and the folder as it was, its incomplete report whole (each file is written whole or not at all).
      const { code, message } = error as NodeJS.ErrnoException;
      process.stderr.write(`conformance: no verdict: the reports could not be written (${visible(code ?? message ?? String(error))})\n`);
      return this.settle('incomplete', 3, VERDICT_LABEL.incomplete);
    } finally {
      this.removeReplays?.();
      current.release();
    }
  }

  /** The reports of a run whose tests were never chosen (Playwright stopped it first): without a verdict, where it has none. */
  private async unchosen(result: FullResult): Promise<RunResult> {
    const streamed = await streamedEnd();
    if (streamed) return streamed.result;
    const end = endOf({ ...(await judgingEnd()), ...(result.status === 'interrupted' && { status: 'interrupted' }) });
    // A fleet that streams, never started: its reports are written one by one, none held.
    const { run, streams, output } = thisRun();
    return streams ? reportRun(run, end, output) : this.write(end);
  }

  /** The engine's exit code as the run's status and the command's exit code, whatever reporters the user adds or replaces. */
  private settle(verdict: string, exitCode: number, headline: string): { status: FullResult['status'] } {
    tellTheCommand({ verdict, exitCode, headline });
    return { status: exitCode === 0 ? 'passed' : 'failed' };
  }
}
