import { loadCatalogue } from '../harness/catalogue.ts';
import { clauseTest } from '../harness/replay.ts';

// One test per clause of contracts/clauses.yaml, in its order; the judge (checks/) gave each its verdict.
for (const clause of loadCatalogue()) clauseTest(clause);
