import type { Answers } from '../harness/judging/answers.ts';
import { walkOf, type ClauseCheck } from '../harness/judging/violations.ts';
import type { Check } from '../harness/judging/judge.ts';

// Sections 2.1, 2.2 and 2.5 leave other fields open, and mark some deprecated: reported, never judged.

type FieldKind = 'unknown' | 'deprecated';

const sorted = (map: Map<string, number>) => [...map].sort(([a], [b]) => a.localeCompare(b)).map(([field, count]) => ({ field, count }));

function observeFields(name: 'public-signup-token' | 'projects', kind: FieldKind) {
  return (answers: Answers, check: ClauseCheck): void => {
    const exchanges = name === 'projects' ? [answers.projects()] : answers.signupTokens.map((t) => t.exchange);
    const bodies = answers.readBodies(check, exchanges);
    const seen = new Map<string, number>();
    for (const { body } of bodies) for (const [field, n] of walkOf(name, body)[kind]) seen.set(field, (seen.get(field) ?? 0) + n);
    check.count(bodies.length).observe({ fields: sorted(seen) });
  };
}

export const FIELD_OBSERVATIONS: Check[] = [
  { clause: 'signup-token.observe.unknown-fields', judge: observeFields('public-signup-token', 'unknown') },
  { clause: 'signup-token.observe.deprecated-fields', judge: observeFields('public-signup-token', 'deprecated') },
  { clause: 'projects.observe.unknown-fields', judge: observeFields('projects', 'unknown') },
  { clause: 'projects.observe.deprecated-fields', judge: observeFields('projects', 'deprecated') },
];
