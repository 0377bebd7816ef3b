import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { makeFolder } from '../harness/files/folders.ts';
import { writeWholeAround } from '../harness/files/whole-file.ts';
import type { ReportView } from './conformance-result.ts';
import { ctrfShell, ctrfTally, matrixFacts, targetTests, type CtrfTally } from './ctrf.ts';
import type { MatrixReport } from './matrix-result.ts';

// The ctrf.json of a run over several targets, written target by target as junit-parts.ts writes its junit.xml:
// each target's tests appended to a file beside it as its report is written, the summary counted meanwhile, and
// the whole put together at the end, so that a fleet's ctrf.json never lies whole in memory.

const PARTS = '.ctrf.json.parts';
/** Where the tests go in the file's shell: the one place its JSON holds an empty list under that key. */
const TESTS = '"tests": []';

export class CtrfParts {
  private readonly parts: string;
  private tally?: CtrfTally;
  private first?: Pick<ReportView, 'suite' | 'document'>;

  constructor(private readonly dir: string) {
    this.parts = path.join(dir, PARTS);
    makeFolder(dir);
    rmSync(this.parts, { force: true });
  }

  /** Appends one target's tests. */
  add(report: ReportView): void {
    const tests = targetTests(report);
    const before = this.tally === undefined ? '' : ',\n';
    this.tally = ctrfTally(tests, Date.parse(report.startedAt), Math.round(report.durationMs), this.tally);
    this.first ??= { suite: report.suite, document: report.document };
    if (tests.length > 0) appendFileSync(this.parts, before + tests.map((t) => JSON.stringify(t)).join(',\n'));
  }

  /** Puts ctrf.json together from the tests appended and the matrix's facts. */
  async finish(matrix: MatrixReport): Promise<string> {
    const file = path.join(this.dir, 'ctrf.json');
    const tally = this.tally ?? ctrfTally([], Date.parse(matrix.startedAt), 0);
    const shell = JSON.stringify(ctrfShell(this.first ?? matrix, matrixFacts(matrix), tally, []), null, 2);
    const at = shell.indexOf(TESTS);
    appendFileSync(this.parts, '');
    await writeWholeAround(file, `${shell.slice(0, at)}"tests": [\n`, this.parts, `\n]${shell.slice(at + TESTS.length)}\n`);
    return file;
  }
}
