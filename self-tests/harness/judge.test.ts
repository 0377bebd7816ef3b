import { loadChecks } from '../../checks/index.ts';
import { expect, test } from '@playwright/test';
import { CHECKS } from '../../checks/index.ts';
import { judge } from '../../harness/judging/judge.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

test('a check that throws errors its own clause and no other', () => {
  const broken = 'signup-token.state.expired-not-enabled';
  const checks = CHECKS.map((c) =>
    c.clause === broken
      ? {
          clause: broken,
          judge: () => {
            throw new Error('a fault in the check');
          },
        }
      : c,
  );
  const judged = judge(recordInProcess(undefined), REFERENCE_INPUT, checks);
  expect(judged.filter((c) => c.outcome !== 'passed').map((c) => [c.clause, c.outcome, c.crash])).toEqual([
    [broken, 'errored', `the check of ${broken} broke: a fault in the check`],
  ]);
});

test('every clause is judged once, in the order of the checks', () => {
  expect(judge(recordInProcess(undefined), REFERENCE_INPUT, loadChecks()).map((c) => c.clause)).toEqual(CHECKS.map((c) => c.clause));
});

test('answers with one body text are read once, and a violation in it is reported for each answer that sent it', () => {
  const recording = recordInProcess(undefined);
  const broken = JSON.stringify({ version: 1, projects: [{ id: 'p', name: 'P', health: 101 }] });
  const lists = recording.exchanges.filter(
    (e) => e.request.credential === 'admin' && ['/api/admin/projects', '/api/admin/projects?archived=false'].includes(e.request.path),
  );
  expect(lists).toHaveLength(2);
  // Two strings of equal content, as two separate reads off the network would give.
  for (const [i, e] of lists.entries()) Object.assign(e, { bodyText: `${broken}${' '.repeat(i)}`.trimEnd() });
  const health = judge(recording, REFERENCE_INPUT, loadChecks()).find((c) => c.clause === 'projects.project.health-range')!;
  expect(health.violations.map((v) => [v.exchange.request.path, v.pointer])).toEqual([
    ['/api/admin/projects', '/projects/0/health'],
    ['/api/admin/projects?archived=false', '/projects/0/health'],
  ]);
});

test('the archived observation tells lists apart by their ids, not by the ids joined into one text', () => {
  const recording = recordInProcess(undefined);
  const list = (ids: string[]) => JSON.stringify({ version: 1, projects: ids.map((id) => ({ id, name: id })) });
  for (const e of recording.exchanges.filter((x) => x.request.credential === 'admin')) {
    if (e.request.path === '/api/admin/projects') Object.assign(e, { bodyText: list(['a,b']) });
    if (e.request.path === '/api/admin/projects?archived=false') Object.assign(e, { bodyText: list(['a', 'b']) });
  }
  const effect = judge(recording, REFERENCE_INPUT, loadChecks()).find((c) => c.clause === 'projects.observe.archived-effect')!;
  expect(effect.observations).toMatchObject({ counts: { withoutParameter: 1, archivedFalse: 2 }, archivedFalseSameAsWithout: false });
});
