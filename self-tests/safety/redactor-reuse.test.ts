import { expect, test } from '@playwright/test';
import { createRedactor, createSecrets, KEPT_REDACTORS, MEMO_CHARS, MEMO_TEXTS } from '../../harness/secrets/redact.ts';
import type { SecretSource } from '../../harness/secrets/secret-rule.ts';

// A redactor is made once for the targets that share their tokens, and remembers the short texts it redacted:
// neither may hide one target's tokens in another's reports in place of its own, nor let a token through.

const EU = { adminToken: 'eu-admin-7f3a9c2e51', forbidden: [], signupTokens: ['eu-signup-b41d77e0'] };
const US = { adminToken: 'us-admin-0c9d4be812', forbidden: [], signupTokens: ['us-signup-5e2a19c3'] };

/** A short text that holds both of a target's tokens. */
const tokensOf = (target: SecretSource) => `admin ${target.adminToken}, signup ${target.signupTokens[0]}`;
const HIDDEN = 'admin $TOKEN, signup $SIGNUP_TOKEN_1';

test("targets with different tokens each have their own hidden and the other's left as it is, in any order and every time", () => {
  for (const [first, second] of [
    [EU, US],
    [US, EU],
  ]) {
    for (let round = 0; round < 2; round++) {
      for (const [mine, theirs] of [
        [first, second],
        [second, first],
      ]) {
        // A configuration of its own each time, as every target of a fleet has.
        const { redact } = createSecrets({ ...mine });
        expect(redact(tokensOf(mine))).toBe(HIDDEN);
        expect(redact(tokensOf(theirs))).toBe(tokensOf(theirs));
        expect(createRedactor({ ...mine })(tokensOf(mine))).toBe(HIDDEN);
      }
    }
  }
});

test("one secret that two targets name differently is hidden by each target's own marker", () => {
  const [x, y] = ['xx-secret-4a7c91d3', 'yy-secret-8e2b05f6'];
  const a = createRedactor({ adminToken: x, forbidden: [], signupTokens: [y] });
  const b = createRedactor({ adminToken: y, forbidden: [], signupTokens: [x] });
  for (let round = 0; round < 2; round++) {
    expect(a(`${x} ${y}`)).toBe('$TOKEN $SIGNUP_TOKEN_1');
    expect(b(`${x} ${y}`)).toBe('$SIGNUP_TOKEN_1 $TOKEN');
  }
});

test("a short text is redacted the same each time, a token in it hidden every time, and what one target remembered is not another's", () => {
  const text = `the token ${EU.adminToken} was sent`;
  const eu = createRedactor({ ...EU });
  expect(eu(text)).toBe('the token $TOKEN was sent');
  expect(eu(text)).toBe('the token $TOKEN was sent');
  expect(createRedactor({ ...EU })(text)).toBe('the token $TOKEN was sent');
  // Remembered by the one target as it is, by the other with its token hidden, in either order.
  const other = `the token ${US.adminToken} was sent`;
  expect(eu(other)).toBe(other);
  expect(createRedactor({ ...US })(other)).toBe('the token $TOKEN was sent');
  expect(createRedactor({ ...US })(text)).toBe(text);
  expect(eu(other)).toBe(other);
});

test("the run's other targets' tokens are hidden by a target that has others, and the same tokens without them are not taken for its", () => {
  const text = `x ${US.adminToken}`;
  const others = [EU, US];
  for (let round = 0; round < 2; round++) {
    expect(createRedactor({ ...EU, others })(text)).toMatch(/^x \$OTHER_TARGET_TOKEN_\d+$/);
    expect(createRedactor({ ...EU })(text)).toBe(text);
    expect(createRedactor({ ...EU, others: [EU, { ...EU }] })(text)).toBe(text);
    expect(createRedactor({ ...US, others })(text)).toBe('x $TOKEN');
  }
});

test('past the bounds of what is kept, a redactor made again and a text redacted again hide their tokens as before', () => {
  const fleet = Array.from({ length: KEPT_REDACTORS + 2 }, (_, i) => ({ adminToken: `fleet-${i}-9f8e7d6c`, forbidden: [], signupTokens: [] }));
  for (const target of fleet) expect(createRedactor({ ...target })(`t ${target.adminToken}`)).toBe('t $TOKEN');
  // The first ones were dropped since: made again, each hides its own token and no other's.
  for (const [i, target] of fleet.slice(0, 2).entries()) {
    const redact = createRedactor({ ...target });
    expect(redact(`t ${target.adminToken}`)).toBe('t $TOKEN');
    expect(redact(`t ${fleet[i + 2].adminToken}`)).toBe(`t ${fleet[i + 2].adminToken}`);
  }
  const redact = createRedactor({ ...EU });
  const texts = Array.from({ length: MEMO_TEXTS + 2 }, (_, i) => `${i} ${EU.adminToken}`);
  const wrong = [...texts, ...texts].filter((text) => redact(text) !== `${text.split(' ')[0]} $TOKEN`);
  expect(wrong.length).toBe(0);
  // Longer than what is remembered: redacted anew each time, as well.
  const long = `${'x'.repeat(MEMO_CHARS)} ${EU.adminToken}`;
  expect(redact(long)).toBe(`${'x'.repeat(MEMO_CHARS)} $TOKEN`);
  expect(redact(long)).toBe(`${'x'.repeat(MEMO_CHARS)} $TOKEN`);
});
