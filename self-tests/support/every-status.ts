import type { Clause } from '../../harness/contracts/catalogue.ts';

/**
 * A catalogue of one clause for each status a clause may end with, its id naming that status, for the tests of a
 * rendering: each test gives the runs that lead to those statuses in its own words (a clause given no run, as
 * f.not-judged, is not judged) and a known deviation for d.deviation.
 */
export const ONE_CLAUSE_PER_STATUS: Clause[] = [
  { id: 'a.passed', section: '2.1', level: 'MUST', title: 'passes', profile: 'core' },
  { id: 'b.failed', section: '2.4', level: 'MUST', title: 'fails', profile: 'core' },
  { id: 'c.errored', section: '2.4', level: 'MUST', title: 'errors', profile: 'core' },
  { id: 'd.deviation', section: '7', level: 'MUST', title: 'fails, accepted', profile: 'core' },
  { id: 'e.not-exercised', section: '5', level: 'MUST', title: 'needs input', profile: 'tokens' },
  { id: 'f.not-judged', section: '5', level: 'MUST', title: 'left out', profile: 'tokens' },
  { id: 'g.observed', section: '9', level: 'INFO', title: 'is observed' },
];
