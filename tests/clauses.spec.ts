import { clausesToReplay, detailsOf, replay, test, titleOf } from './replay.ts';

// One test per clause of contracts/clauses.yaml, in its order; the judge (checks/) gave each its verdict
// in the runner, and the test replays it (tests/replay.ts).
for (const clause of clausesToReplay()) test(titleOf(clause), detailsOf(clause), async ({}, testInfo) => replay(clause, testInfo));
