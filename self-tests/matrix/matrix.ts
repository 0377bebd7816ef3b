import path from 'node:path';
import type { Fault } from '../../reference-server/variants/index.ts';
import { PROJECT_ROOT } from '../support/run-suite.ts';
import { mustClauses, unprovenClauses, type MatrixInput } from './variant-checks.ts';

/** The generated matrix, checked in so that a change to what the faults prove shows up in review. */
export const MATRIX_FILE = path.join(PROJECT_ROOT, 'docs', 'fault-matrix.md');
export const UPDATE_COMMAND = 'UPDATE_MATRIX=1 npx playwright test --config self-tests/playwright.config.ts self-tests/matrix/coverage.test.ts';

const FAILED = 'F';
const ERRORED = 'E';

function cell(fault: Fault, id: string): string {
  if (fault.breaks.includes(id)) return FAILED;
  return fault.errors?.includes(id) ? ERRORED : '';
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

/** The fault × clause grid, narrow enough for a terminal: columns are numbered as in the clause table. */
export function renderGrid({ clauses, faults }: MatrixInput): string {
  const must = mustClauses(clauses);
  const width = Math.max(...faults.map((f) => f.name.length));
  const gridRow = (first: string, cells: string[]) => `| ${first.padEnd(width)} |${cells.map((c) => c.padStart(2)).join('|')}|`;
  return [
    gridRow(
      'Fault',
      must.map((_, i) => String(i + 1)),
    ),
    gridRow(
      '-'.repeat(width),
      must.map(() => '-:'),
    ),
    ...faults.map((f) =>
      gridRow(
        f.name,
        must.map((c) => cell(f, c.id)),
      ),
    ),
  ].join('\n');
}

/** The MUST clauses, numbered as the grid's columns, each with the faults that break it. */
export function clauseTable({ clauses, faults }: MatrixInput): string {
  const lines = [row(['#', 'Clause', 'Section', 'Broken by']), row(['-:', '-', '-', '-'])];
  mustClauses(clauses).forEach((c, i) => {
    const by = faults.filter((f) => f.breaks.includes(c.id)).map((f) => `\`${f.name}\``);
    lines.push(row([String(i + 1), `\`${c.id}\``, c.section, by.join(', ') || '**none**']));
  });
  return lines.join('\n');
}

const faultTable = ({ faults }: MatrixInput) =>
  [row(['Fault', 'Flaw']), row(['-', '-']), ...faults.map((f) => row([`\`${f.name}\``, f.description]))].join('\n');

const validTable = ({ valid }: MatrixInput) =>
  [
    row(['Valid variant', 'How it differs from the reference', 'MUST clauses not exercised']),
    row(['-', '-', '-']),
    ...valid.map((v) => row([`\`${v.name}\``, v.description, (v.notExercised ?? []).map((id) => `\`${id}\``).join(', ') || 'none'])),
  ].join('\n');

export function countsLine(input: MatrixInput): string {
  const must = mustClauses(input.clauses).length;
  const proven = must - unprovenClauses(input.clauses, input.faults).length;
  return `${input.faults.length} faults, ${input.valid.length} valid variants, ${proven} of ${must} MUST clauses broken by at least one fault`;
}

/** docs/fault-matrix.md: a pure function of the variant data and the catalogue, so it can be checked for staleness. */
export function renderMatrix(input: MatrixInput): string {
  return `# Fault matrix

Generated from \`reference-server/variants/\` and \`contracts/clauses.yaml\`; do not edit by hand. After changing
either, run \`${UPDATE_COMMAND}\`.

The self-tests in \`self-tests/matrix/\` run the suite against each variant and assert that the outcome is exactly
what this file says: every fault makes exactly the clauses marked ${FAILED} fail and leaves those marked ${ERRORED}
errored (their answer cannot be read), and every valid variant passes.

${countsLine(input)}.

## MUST clauses and the faults that break them

${clauseTable(input)}

## Faults × clauses

${FAILED} = fails, ${ERRORED} = errored, blank = passed or not exercised. Columns are the clause numbers above.

${renderGrid(input)}

## Faults

${faultTable(input)}

## Valid variants

Each must pass with exit code 0, no clause failed or errored. The last column lists the MUST clauses a variant
leaves not exercised because it sends nothing for them to judge; the test asserts that list exactly.

${validTable(input)}
`;
}
