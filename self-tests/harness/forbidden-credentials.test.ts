import { loadChecks } from '../../checks/index.ts';
import { expect, test } from '@playwright/test';
import { loadConfig } from '../../harness/config/config.ts';
import { judge } from '../../harness/judging/judge.ts';
import { makeRunSecrets, requestPlan } from '../../harness/recording/plan.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import { REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';
import { requirementText } from '../../harness/judging/violations.ts';

// Section 5 names no permission per operation: each forbidden credential is sent to, and judged on, the
// operations it was given for.

test('forbidden tokens are read per operation, each list in order, each with its own placeholder', () => {
  const config = loadConfig(
    {
      CONFORMANCE_BASE_URL: 'http://127.0.0.1:9',
      CONFORMANCE_ADMIN_TOKEN: 'admin-token',
      CONFORMANCE_FORBIDDEN_TOKEN: 'backend-1,backend-2',
      CONFORMANCE_FORBIDDEN_TOKEN_SIGNUP: 'viewer-pat',
      CONFORMANCE_FORBIDDEN_TOKEN_PROJECTS: 'other-pat',
    },
    '/nonexistent',
  );
  expect(config.forbidden.map((f) => [f.credential, f.placeholder, f.token, f.operations.join('+')])).toEqual([
    ['forbidden', '$FORBIDDEN_TOKEN', 'backend-1', 'signup-token+projects'],
    ['forbidden-2', '$FORBIDDEN_TOKEN_2', 'backend-2', 'signup-token+projects'],
    ['forbidden-signup', '$FORBIDDEN_TOKEN_SIGNUP', 'viewer-pat', 'signup-token'],
    ['forbidden-projects', '$FORBIDDEN_TOKEN_PROJECTS', 'other-pat', 'projects'],
  ]);
});

test('a token refused one operation only is sent to that operation alone', () => {
  const plan = requestPlan(REFERENCE_INPUT, makeRunSecrets()).filter((r) => r.credential === 'forbidden-signup');
  expect(plan.map((r) => r.path)).toEqual([`/api/admin/invite-link/tokens/${REFERENCE_INPUT.signupTokens[0]}`]);
});

test('the reference target refuses each forbidden credential on its operations, and each answer is judged', () => {
  const checks = new Map(judge(recordInProcess(undefined), REFERENCE_INPUT, loadChecks()).map((c) => [c.clause, c]));
  // The token operation is judged on both credentials, the projects operation on the one refused both.
  expect(checks.get('auth.signup-token.forbidden')).toMatchObject({ outcome: 'passed', instances: 2 });
  expect(checks.get('auth.projects.forbidden')).toMatchObject({ outcome: 'passed', instances: 1 });
  expect(checks.get('error.signup-token.403')).toMatchObject({ outcome: 'passed', instances: 2 });
});

test('a viewer token let through is a violation that names its placeholder and hints at the permission', () => {
  const fault = FAULTS.find((f) => f.name === 'viewer-let-through-on-tokens')!;
  const check = judge(recordInProcess(fault), REFERENCE_INPUT, loadChecks()).find((c) => c.clause === 'auth.signup-token.forbidden')!;
  expect(check.outcome).toBe('failed');
  expect(check.violations.map((v) => [v.exchange.request.credential, v.received, requirementText(v.requirement)])).toEqual([
    [
      'forbidden-signup',
      'status 200',
      'status 403 for $FORBIDDEN_TOKEN_SIGNUP; it was let through, so if it holds the permission after all, give a token that lacks it',
    ],
  ]);
});
