import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { FAULTS, VALID_VARIANTS } from '../../reference-server/variants/index.ts';
import { MATRIX_FILE, UPDATE_COMMAND, clauseTable, countsLine, renderGrid, renderMatrix } from './matrix.ts';
import { changedAnswers, unprovenClauses, variantProblems, type MatrixInput } from './variant-checks.ts';

const input: MatrixInput = { clauses: loadCatalogue(), faults: FAULTS, valid: VALID_VARIANTS };

test('every MUST clause of the catalogue is broken by at least one fault', () => {
  process.stdout.write(`\nfault matrix: ${countsLine(input)}\n\n${renderGrid(input)}\n\n${clauseTable(input)}\n\n`);
  expect(unprovenClauses(input.clauses, FAULTS), 'MUST clauses that no fault in reference-server/variants/faults.ts breaks').toEqual([]);
});

test('the meta-check names a MUST clause whose only fault is taken away', () => {
  const others = FAULTS.filter((f) => f.name !== 'expired-token-enabled');
  expect(unprovenClauses(input.clauses, others)).toEqual(['signup-token.state.expired-not-enabled']);
});

test('every fault and valid variant has a unique name, a one-line description and only MUST clauses of the catalogue', () => {
  expect(variantProblems(input)).toEqual([]);
});

test("every fault and valid variant answers at least one of the suite's requests differently from the reference", () => {
  const unchanged = [...FAULTS, ...VALID_VARIANTS].filter((v) => changedAnswers(v) === 0).map((v) => v.name);
  expect(unchanged, 'variants that serve exactly the reference').toEqual([]);
});

test('docs/fault-matrix.md is the matrix of the current faults, valid variants and catalogue', () => {
  const rendered = renderMatrix(input);
  if (process.env.UPDATE_MATRIX === '1') writeFileSync(MATRIX_FILE, rendered);
  const committed = existsSync(MATRIX_FILE) ? readFileSync(MATRIX_FILE, 'utf8') : '';
  expect(committed, `docs/fault-matrix.md is out of date; run: ${UPDATE_COMMAND}`).toBe(rendered);
});
