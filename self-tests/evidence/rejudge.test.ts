import { expect, test } from '@playwright/test';
import { bundleRecording, placeholderSecrets, recordingOf, redactBody, type BundleRecording } from '../../harness/evidence/bundle-recording.ts';
import type { ForbiddenCredential } from '../../harness/config/tokens.ts';
import { clauseEvidence, type RunFacts } from '../../harness/judging/verdicts.ts';
import { judge } from '../../harness/judging/judge.ts';
import { createRedactor, createSecrets } from '../../harness/secrets/redact.ts';
import { ALL_VARIANTS } from '../../reference-server/variants/index.ts';
import { mutate } from '../../reference-server/variants/transforms.ts';
import type { Variant } from '../../reference-server/server.ts';
import { checksOnce, REFERENCE_INPUT, recordInProcess } from '../support/in-process.ts';

// Issue 13, point 3: a bundle's exchanges are redacted consistently, so that the judge gives every clause
// the same verdict on them as on the live answers, with the same evidence (secrets as placeholders).

const ORIGIN = 'http://reference.invalid';
const FACTS: RunFacts = {
  target: { name: 'reference', baseUrl: ORIGIN, embedded: false },
  startedAt: '',
  requests: { count: 0, methods: ['GET'] },
  deviations: [],
};

/** The live verdicts and evidence of a variant, and those judged again from its bundle, written and read back as a file would be. */
function judgedTwice(variant: Variant | undefined, input: typeof REFERENCE_INPUT = REFERENCE_INPUT) {
  const recording = recordInProcess(variant, input);
  const secrets = createSecrets(input);
  const live = judge(recording, input, checksOnce());
  const bundle = JSON.parse(JSON.stringify(bundleRecording(recording, { ...input, baseUrl: ORIGIN }, secrets, FACTS))) as BundleRecording;
  const again = judge(recordingOf(bundle), bundle.input, checksOnce());
  const bundleSecrets = createSecrets(placeholderSecrets(bundle.input));
  const evidence = (checks: typeof live, s: typeof secrets) =>
    checks.map((c) => JSON.parse(JSON.stringify(clauseEvidence(c, s), (k, v) => (k === 'durationMs' ? undefined : v))));
  return { bundle, live, again, liveEvidence: evidence(live, secrets), bundleEvidence: evidence(again, bundleSecrets) };
}

test("no secret is left in a bundle's recording: paths, bodies and the judge's input hold placeholders", () => {
  const { bundle } = judgedTwice(undefined);
  const text = JSON.stringify(bundle);
  for (const secret of [
    REFERENCE_INPUT.adminToken,
    ...REFERENCE_INPUT.signupTokens,
    ...(REFERENCE_INPUT.forbidden as ForbiddenCredential[]).map((f) => f.token),
  ])
    expect(text).not.toContain(secret);
  expect(bundle.input.signupTokens).toEqual(REFERENCE_INPUT.signupTokens.map((_, i) => `$SIGNUP_TOKEN_${i + 1}`));
  expect(bundle.exchanges[0].request.path).toBe('/api/admin/invite-link/tokens/%24SIGNUP_TOKEN_1');
  expect(bundle.exchanges[0].bodyText).toContain('"secret":"$SIGNUP_TOKEN_1"');
});

test('re-judging the bundle of the reference target and of every variant gives every clause the live verdict and evidence', () => {
  for (const variant of [undefined, ...ALL_VARIANTS]) {
    const { live, again, liveEvidence, bundleEvidence } = judgedTwice(variant);
    const name = variant?.name ?? 'reference';
    expect(
      again.map((c) => [c.clause, c.outcome]),
      name,
    ).toEqual(live.map((c) => [c.clause, c.outcome]));
    expect(bundleEvidence, name).toEqual(liveEvidence);
  }
});

// A target that answers a token request with its secret in another written form fails the clause; its
// bundle, where that value is redacted, must not turn the failure into a pass when it is judged again.
const OTHERWISE: [string, (secret: string) => string][] = [
  ['HTML references', (secret) => [...secret].map((c) => `&#${c.codePointAt(0)};`).join('')],
  ['every byte percent-encoded', (secret) => [...Buffer.from(secret)].map((b) => `%${b.toString(16)}`).join('')],
  ['base64', (secret) => Buffer.from(secret).toString('base64')],
];

for (const [form, spell] of OTHERWISE) {
  test(`a secret answered in another written form (${form}) fails alike live and on the bundle`, () => {
    const variant: Variant = {
      name: `secret-as-${form}`,
      description: `the secret of a token is answered as ${form}`,
      transform: mutate.token((token) => {
        token.secret = spell(token.secret);
      }),
    };
    const { live, again, liveEvidence, bundleEvidence } = judgedTwice(variant);
    const sameSecret = (checks: typeof live) => checks.find((c) => c.clause === 'signup-token.response.same-secret')?.outcome;
    expect(sameSecret(live)).toBe('failed');
    expect(again.map((c) => [c.clause, c.outcome])).toEqual(live.map((c) => [c.clause, c.outcome]));
    expect(bundleEvidence).toEqual(liveEvidence);
  });
}

test("with the target's description fetched, its drift is observed alike on the bundle", () => {
  const { live, again, bundle } = judgedTwice(undefined, { ...REFERENCE_INPUT, openapiPath: '/docs/openapi.json' });
  expect(bundle.input.openapiPath).toBe('/docs/openapi.json');
  const drift = (checks: typeof live) => checks.filter((c) => c.clause.endsWith('description-drift')).map((c) => [c.outcome, c.observations]);
  expect(drift(again)).toEqual(drift(live));
  expect(drift(live).map(([outcome]) => outcome)).toEqual(['passed', 'passed']);
});

test('a secret written with JSON escapes inside a string is redacted as a value, and nothing else in the body changes', () => {
  const redact = createRedactor({ adminToken: 'abc/def', forbidden: [], signupTokens: [] });
  const body = '{"a":"abc\\/def","b":"\\u0061bc/def and more","n":1e400,"c":"x\\ny","a":2}';
  expect(redactBody(body, redact)).toBe('{"a":"$TOKEN","b":"$TOKEN and more","n":1e400,"c":"x\\ny","a":2}');
  expect(redactBody('plain abc/def text', redact)).toBe('plain $TOKEN text');
});

test('a JSON string of many MiB, escapes all through it, is redacted as a value, a secret in it too', () => {
  // A pattern that matched literals ran out of stack on a literal of about 10 MiB; a target decides how long they are.
  // Each literal here is 11.4 MB, three of them in one body.
  const redact = createRedactor({ adminToken: 'abc/def12', forbidden: [], signupTokens: [] });
  const escapes = '\\u0041'.repeat(1_900_000);
  const body = `{"a":"${escapes}","b":"x\\/y${escapes}abc\\/def12${escapes}"}`;
  const redacted = redactBody(body, redact);
  expect(redacted.length).toBeLessThan(body.length);
  expect(redacted).not.toContain('abc\\/def12');
  expect(JSON.parse(redacted)).toEqual({ a: 'A'.repeat(1_900_000), b: `x/y${'A'.repeat(1_900_000)}$TOKEN${'A'.repeat(1_900_000)}` });
  expect(redactBody(`{"a":"${escapes}"}`, redact)).toBe(`{"a":"${escapes}"}`);
});
