import { appendFileSync, createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { makeFolder } from '../harness/files/folders.ts';
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
    const beside = `${file}.${process.pid}.part`;
    try {
      appendFileSync(this.parts, '');
      const out = createWriteStream(beside);
      out.write(junitOpening(this.all, this.seconds));
      await pipeline(createReadStream(this.parts), out, { end: false });
      await new Promise<void>((resolve, reject) => out.end(JUNIT_CLOSING.slice(1), (error?: Error | null) => (error ? reject(error) : resolve())));
      renameSync(beside, file);
      return file;
    } finally {
      rmSync(this.parts, { force: true });
      rmSync(beside, { force: true });
    }
  }
}
