import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { makeFolder } from '../harness/files/folders.ts';
import { writeWholeAround } from '../harness/files/whole-file.ts';
import type { ReportView } from './conformance-result.ts';
import { JUNIT_CLOSING, junitCounts, junitOpening, testsuite } from './junit.ts';

// The junit.xml of a run over several targets, written target by target: each target's testsuite is appended to a
// file beside it as its report is written, and the whole put together at the end (its opening counts them all),
// so that a fleet's junit.xml never lies whole in memory. Written beside, then renamed: whole or not at all.

const PARTS = '.junit.xml.parts';

export class JunitParts {
  private readonly parts: string;
  private all = junitCounts([]);
  private seconds = 0;

  constructor(private readonly dir: string) {
    this.parts = path.join(dir, PARTS);
    makeFolder(dir);
    rmSync(this.parts, { force: true });
  }

  /** Appends one target's testsuite. */
  add(report: ReportView): void {
    const n = junitCounts(report.clauses);
    this.all = {
      tests: this.all.tests + n.tests,
      failures: this.all.failures + n.failures,
      errors: this.all.errors + n.errors,
      skipped: this.all.skipped + n.skipped,
    };
    this.seconds = Math.max(this.seconds, report.durationMs / 1000);
    appendFileSync(this.parts, `${testsuite(report)}\n`);
  }

  /** Puts junit.xml together from the testsuites appended. */
  async finish(): Promise<string> {
    const file = path.join(this.dir, 'junit.xml');
    appendFileSync(this.parts, '');
    await writeWholeAround(file, junitOpening(this.all, this.seconds), this.parts, JUNIT_CLOSING.slice(1));
    return file;
  }
}
