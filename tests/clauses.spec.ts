import { test } from '@playwright/test';
import { clausesToReplay, detailsOf, replay, titleOf } from '../harness/replay.ts';

// One test per clause of contracts/clauses.yaml, in its order; the judge (checks/) gave each its verdict
// in global setup, and the test replays it.
for (const clause of clausesToReplay()) test(titleOf(clause), detailsOf(clause), async ({}, testInfo) => replay(clause, testInfo));
