import { loadChecks } from '../../checks/index.ts';
import { expect, test } from '@playwright/test';
import { clauseEvidence } from '../../harness/judging/verdicts.ts';
import type { Exchange } from '../../harness/transport/exchange.ts';
import { judge } from '../../harness/judging/judge.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import { answerSignature } from '../../harness/judging/repeat.ts';
import type { Variant } from '../../reference-server/server.ts';
import { compose, mapBody, rawText, rewrite, type Json } from '../../reference-server/variants/transforms.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

// A field a target names after a property every object inherits is a field like any other: observed as
// unknown where the document does not define it, never looked up on the prototype, never called.

const INHERITED = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toJSON',
  '__defineGetter__',
  '__lookupSetter__',
];

/** Each object of a body, nested ones too, with a field of every inherited name (an own field, as JSON.parse makes it). */
function withInheritedNames(value: unknown): unknown {
  if (Array.isArray(value)) value.forEach(withInheritedNames);
  else if (value !== null && typeof value === 'object') {
    Object.values(value).forEach(withInheritedNames);
    for (const name of INHERITED)
      Object.defineProperty(value, name, {
        value: name === '__proto__' ? { polluted: true } : name.length,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return value;
}

const INHERITED_NAMES: Variant = {
  name: 'inherited-names',
  description: 'every object of both operations carries fields named after inherited properties, and a token repeats "__proto__"',
  transform: compose(
    mapBody('signup-token', (body: Json) => withInheritedNames(body)),
    mapBody('projects', (body: Json) => withInheritedNames(body)),
    rewrite({ operation: 'signup-token', status: 200 }, (response) =>
      rawText(200, 'application/json; charset=utf-8', `{"__proto__":{"first":1},${JSON.stringify(response.body).slice(1)}`),
    ),
  ),
};

/** Where the document defines no field: every object of both operations, as their observations fold paths. */
const TOKEN_PLACES = ['', '/role', '/users/*'];
const PROJECT_PLACES = ['', '/projects/*', '/projects/*/owners/*'];

test('fields named after inherited properties are observed as unknown fields, and judged like the rest of the body', () => {
  const checks = judge(recordInProcess(INHERITED_NAMES), REFERENCE_INPUT, loadChecks());
  const notPassed = checks
    .filter((c) => c.outcome !== 'passed')
    .map((c) => `${c.clause}: ${c.outcome} ${c.crash ?? c.violations[0]?.pointer ?? c.erroredAnswers[0]?.reason ?? ''}`);
  expect(notPassed).toEqual([]);
  const observed = (clause: string) => (checks.find((c) => c.clause === clause)!.observations as { fields: { field: string }[] }).fields.map((f) => f.field);
  expect(observed('signup-token.observe.unknown-fields')).toEqual(expect.arrayContaining(TOKEN_PLACES.flatMap((p) => INHERITED.map((n) => `${p}/${n}`))));
  expect(observed('projects.observe.unknown-fields')).toEqual(expect.arrayContaining(PROJECT_PLACES.flatMap((p) => INHERITED.map((n) => `${p}/${n}`))));
  // The evidence carries them as any other field name.
  const evidence = clauseEvidence(checks.find((c) => c.clause === 'projects.observe.unknown-fields')!, createSecrets(REFERENCE_INPUT));
  expect(JSON.stringify(evidence.observations)).toContain('"/projects/*/__proto__"');
  expect(Object.getPrototypeOf({})).not.toHaveProperty('polluted');
});

test('values that are objects with a "toString" or "valueOf" field are described and compared, never converted by calling them', () => {
  const hostileId = mapBody('projects', (body: Json) => ((body.projects[0].id = JSON.parse('{"toString":1,"valueOf":{},"toJSON":"x"}')), body));
  const checks = judge(
    recordInProcess({ name: 'object-id', description: 'a project id that is an object with inherited names', transform: hostileId }),
    REFERENCE_INPUT,
    loadChecks(),
  );
  expect(checks.filter((c) => c.crash !== undefined).map((c) => c.crash)).toEqual([]);
  const types = checks.find((c) => c.clause === 'projects.project.types')!;
  expect(types.violations.map((v) => [v.pointer, v.received])).toContainEqual(['/projects/0/id', '{"toString":1,"valueOf":{},"toJSON":"x"}']);
});

test('repeat mode describes an answer whose enabled is an object with a "toString" field', () => {
  const exchange = {
    request: { method: 'GET', path: '/api/admin/invite-link/tokens/x', credential: 'admin' },
    url: 'http://t/x',
    startedAt: 0,
    durationMs: 0,
    bodyBytes: 0,
    status: 200,
    contentType: 'application/json',
    bodyText: '{"enabled":{"toString":1,"valueOf":2}}',
  } as Exchange;
  expect(answerSignature(exchange)).toContain('enabled={"toString":1,"valueOf":2}');
});
