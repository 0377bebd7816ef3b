import type { Answers } from '../harness/judging/answers.ts';
import { field } from '../harness/contracts/fields.ts';
import type { ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';

// Section 9: the list's version is reported, never judged beyond its type (2.4).

function version(answers: Answers, check: ClauseCheck): void {
  const bodies = answers.readBodies(check, [answers.projects()]);
  const literal = bodies[0]?.body.literals.get('/version');
  const value = field(bodies[0]?.body.value, 'version');
  check.count(bodies.length).observe({ version: literal?.text ?? value });
}

export const VERSIONING_CHECKS: Check[] = [{ clause: 'projects.observe.version', judge: version }];
