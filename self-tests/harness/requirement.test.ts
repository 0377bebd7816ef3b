import { expect, test } from '@playwright/test';
import { clauseEvidence } from '../../harness/judging/verdicts.ts';
import { judge } from '../../harness/judging/judge.ts';
import { kindOf, requirementText, schemaRequirement, type Requirement } from '../../harness/judging/violations.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import { ALL_VARIANTS } from '../../reference-server/variants/index.ts';
import { checksOnce, REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

// A violation carries what the document requires as data, its kind and parameters; one module words it for
// every report. The words are the suite's, never the validator's own English.

const WORDED: [Requirement, string, string][] = [
  [{ kind: 'status', status: 401 }, 'status', 'status 401'],
  [{ kind: 'status', status: 403, hint: ' (the token lacks the permission)' }, 'status', 'status 403 (the token lacks the permission)'],
  [{ kind: 'media-type' }, 'media-type', 'content-type application/json'],
  [{ kind: 'json-body' }, 'json-body', 'a JSON body'],
  [{ kind: 'projects-answer' }, 'projects-answer', 'a 200 answer with a projects list'],
  [{ kind: 'projects-list' }, 'projects-list', 'a projects list: an integer version and a projects array'],
  [{ kind: 'error-object', name: 'AuthenticationRequired' }, 'error-object', 'a JSON error object named AuthenticationRequired'],
  [{ kind: 'error-name', name: 'NoAccessError' }, 'error-name', '"NoAccessError"'],
  [
    { kind: 'error-shape', keyword: 'required', params: { missingProperty: 'name' } },
    'error-shape.required',
    'the error object of 2.7: the field "name" to be present',
  ],
  [{ kind: 'error-shape', keyword: 'minLength', params: { limit: 1 } }, 'error-shape.minLength', 'the error object of 2.7: a text of at least 1 character'],
  [
    { kind: 'expired-not-enabled', expiresAt: '2026-01-01T00:00:00Z', requestedAt: '2026-02-01T00:00:00.000Z' },
    'expired-not-enabled',
    'false, since expiresAt 2026-01-01T00:00:00Z lies before the request (2026-02-01T00:00:00.000Z)',
  ],
  [{ kind: 'same-secret', secret: 'abc' }, 'same-secret', 'the secret named in the path, "abc"'],
  [{ kind: 'schema', keyword: 'type', params: { type: ['string', 'null'] } }, 'schema.type', 'a value of type string or null'],
  [{ kind: 'schema', keyword: 'enum', params: { allowedValues: ['open', 'protected'] } }, 'schema.enum', 'one of "open", "protected"'],
  [{ kind: 'schema', keyword: 'maximum', params: { limit: 100 } }, 'schema.maximum', 'a value of at most 100'],
  [{ kind: 'schema', keyword: 'integer', params: {} }, 'schema.integer', 'a value of type integer'],
  [{ kind: 'schema', keyword: 'const', params: { allowedValue: 'system' } }, 'schema.const', 'the value "system"'],
];

for (const [requirement, kind, words] of WORDED)
  test(`the requirement ${JSON.stringify(requirement)} is of kind ${kind} and worded "${words}"`, () => {
    expect([kindOf(requirement), requirementText(requirement)]).toEqual([kind, words]);
  });

test("a schema keyword the contracts do not use is named as such, never in the validator's words", () => {
  const requirement = { kind: 'schema' as const, ...schemaRequirement('pattern', { pattern: '^a' }) };
  expect([kindOf(requirement), requirementText(requirement)]).toEqual(['schema.other', 'a value the contract allows (its pattern keyword)']);
});

test('every violation of every variant of the reference server has a kind, and words of the suite alone', () => {
  const secrets = createSecrets(REFERENCE_INPUT);
  const found = [undefined, ...ALL_VARIANTS].flatMap((variant) =>
    judge(recordInProcess(variant, REFERENCE_INPUT), REFERENCE_INPUT, checksOnce()).flatMap((check) =>
      clauseEvidence(check, secrets).violations.map((v) => ({ variant: variant?.name, clause: check.clause, kind: v.kind, required: v.required })),
    ),
  );
  expect(found.length).toBeGreaterThan(100);
  // The error object's own shape is among them: the place where the validator's words once reached the reports.
  expect(found.some((v) => v.kind === 'error-shape.required')).toBe(true);
  expect(found.filter((v) => !/^[a-z-]+(\.[a-zA-Z]+)?$/.test(v.kind ?? ''))).toEqual([]);
  // Ajv's English ("must have required property 'name'", "must be integer") never reaches a report.
  expect(found.filter((v) => /\bmust\b/.test(v.required))).toEqual([]);
  expect(found.filter((v) => v.kind === 'schema.other' || v.kind === 'error-shape.other')).toEqual([]);
});
