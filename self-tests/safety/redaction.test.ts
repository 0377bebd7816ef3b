import { expect, test } from '@playwright/test';
import { forbiddenCredentials } from '../../harness/config.ts';
import { cut } from '../../harness/evidence.ts';
import { createRedactor, createSecrets } from '../../harness/redact.ts';
import { unsafeToRedact } from '../../harness/secret-rule.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { base64Around, jsonEscaped, percentEncodedAll, percentLower, unicodeEscaped, writtenForms } from '../support/written-forms.ts';

// The redactor as data: texts and what they become. A secret is found in every spelling a target may
// give it, and nothing else is touched.

// Shaped so that every encoding changes it: "*" and ":" as in an Unleash token, "/" that JSON may escape
// and a URL must, '"' that JSON must.
const ADMIN = '*:*.9c4e-7a1f/2b"d8';
const FORBIDDEN = 'user:5e0c3b7a91d4';
const SIGNUP = 'b5f1c2d4e6a8091b2c3d4e5f60718293';
const CONFIG = { adminToken: ADMIN, forbidden: forbiddenCredentials([FORBIDDEN], [], []), signupTokens: [SIGNUP] };
const redact = createRedactor(CONFIG);

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

const CASES: { description: string; text: string; redacted: string }[] = [
  { description: 'as it is, between words', text: `token ${ADMIN} was sent`, redacted: 'token $TOKEN was sent' },
  { description: 'as it is, glued to other text', text: `x${ADMIN}y`, redacted: 'x$TOKENy' },
  { description: 'the whole text', text: ADMIN, redacted: '$TOKEN' },
  { description: 'as a JSON string', text: `{"t":"${jsonEscaped(ADMIN)}"}`, redacted: '{"t":"$TOKEN"}' },
  { description: 'JSON-escaped with \\/', text: `{"t":"*:*.9c4e-7a1f\\/2b\\"d8"}`, redacted: '{"t":"$TOKEN"}' },
  { description: 'every character as \\uXXXX in lower case', text: `{"t":"${unicodeEscaped(ADMIN)}"}`, redacted: '{"t":"$TOKEN"}' },
  { description: 'every character as \\uXXXX in upper case', text: `{"t":"${unicodeEscaped(ADMIN, true)}"}`, redacted: '{"t":"$TOKEN"}' },
  { description: 'some characters as \\uXXXX', text: '"*\\u003A*.9c4e-7a1f\\u002f2b\\u0022d8"', redacted: '"$TOKEN"' },
  { description: 'escaped twice, as the JSON text of a value that holds escapes', text: JSON.stringify(unicodeEscaped(ADMIN)), redacted: '"$TOKEN"' },
  { description: 'percent-encoded', text: `?t=${encodeURIComponent(ADMIN)}&x=1`, redacted: '?t=$TOKEN&x=1' },
  { description: 'percent-encoded in lower case', text: `?t=${percentLower(ADMIN)}&x=1`, redacted: '?t=$TOKEN&x=1' },
  { description: 'partly percent-encoded, in both cases', text: '?t=*%3a*.9c4e-7a1f/2b%22d8', redacted: '?t=$TOKEN' },
  { description: 'every character percent-encoded', text: `/x/${percentEncodedAll(ADMIN)}/y`, redacted: '/x/$TOKEN/y' },
  { description: 'percent-encoded twice', text: `?next=${encodeURIComponent(encodeURIComponent(ADMIN))}`, redacted: '?next=$TOKEN' },
  { description: 'percent-encoded inside JSON', text: `"${encodeURIComponent(ADMIN).replace(/%/g, '\\u0025')}"`, redacted: '"$TOKEN"' },
  { description: 'as HTML character references', text: '<input value="&ast;&#58;&#x2a;.9c4e-7a1f&sol;2b&quot;d8">', redacted: '<input value="$TOKEN">' },
  { description: 'in a JSON pointer, "/" as ~1', text: '/projects/0/*:*.9c4e-7a1f~12b"d8', redacted: '/projects/0/$TOKEN' },
  { description: 'in base64, as a Basic credential', text: `Basic ${b64(`admin:${ADMIN}`)}`, redacted: 'Basic YWRtaW46$TOKEN' },
  { description: 'in base64, alone and padded', text: `t=${b64(ADMIN)};`, redacted: 't=$TOKEN;' },
  { description: 'in base64url, alone without padding', text: `t=${b64url(ADMIN)};`, redacted: 't=$TOKEN;' },
  { description: 'in base64, from the second byte of a group', text: `x ${base64Around('x', ADMIN, 'yz')} y`, redacted: 'x e$TOKEN5eg== y' },
  { description: 'in base64url, from the third byte of a group', text: `x ${base64Around('xy', ADMIN, '', true)} y`, redacted: 'x eH$TOKEN y' },
  { description: 'in base64 inside a JSON string with / escaped', text: JSON.stringify(b64(`u:${ADMIN}`)).replace(/\//g, '\\/'), redacted: '"dT$TOKEN"' },
  { description: 'the base64 of its percent-encoding', text: b64(encodeURIComponent(ADMIN)), redacted: '$TOKEN' },
  { description: 'a prefix of 8 characters at the end of a text', text: `as ${ADMIN.slice(0, 8)}`, redacted: 'as $TOKEN' },
  { description: 'a longer prefix, percent-encoded, at the end of a text', text: `as ${encodeURIComponent(ADMIN.slice(0, 15))}`, redacted: 'as $TOKEN' },
  { description: 'a prefix cut inside an escape', text: `"${unicodeEscaped(ADMIN).slice(0, 58)}`, redacted: '"$TOKEN' },
  { description: 'a suffix of 8 characters at the start of a text', text: `${ADMIN.slice(-8)}" was sent`, redacted: '$TOKEN" was sent' },
  { description: 'a prefix of 7 characters at the end, too short to tell', text: `as ${ADMIN.slice(0, 7)}`, redacted: `as ${ADMIN.slice(0, 7)}` },
  {
    description: 'a prefix of 8 characters inside a text, where nothing was cut',
    text: `as ${ADMIN.slice(0, 8)} and more`,
    redacted: `as ${ADMIN.slice(0, 8)} and more`,
  },
  { description: 'two secrets side by side', text: `${ADMIN}${SIGNUP}`, redacted: '$TOKEN$SIGNUP_TOKEN_1' },
  { description: 'a forbidden credential, percent-encoded', text: `by ${encodeURIComponent(FORBIDDEN)}.`, redacted: 'by $FORBIDDEN_TOKEN.' },
  { description: 'a signup secret in its path', text: `/api/admin/invite-link/tokens/${SIGNUP}`, redacted: '/api/admin/invite-link/tokens/$SIGNUP_TOKEN_1' },
  { description: 'a signup secret in upper-case percent-encoding of every character', text: percentEncodedAll(SIGNUP), redacted: '$SIGNUP_TOKEN_1' },
  {
    description: 'words, keys and paths that are no secret',
    text: '{"true":":","admin":"\\"","path":"/api/admin/projects?archived=true"}',
    redacted: '{"true":":","admin":"\\"","path":"/api/admin/projects?archived=true"}',
  },
  { description: 'a media type', text: 'application/json; charset=utf-8', redacted: 'application/json; charset=utf-8' },
  { description: 'escapes that spell nothing secret', text: '\\u00e9 %E2%82%AC &amp; ~0 \\/ %zz \\u12', redacted: '\\u00e9 %E2%82%AC &amp; ~0 \\/ %zz \\u12' },
  {
    description: 'percent-encoded after names every object has, as if they were character references',
    text: `&constructor; &toString; &__proto__; ${encodeURIComponent(ADMIN)} and more`,
    redacted: '&constructor; &toString; &__proto__; $TOKEN and more',
  },
  { description: 'an empty text', text: '', redacted: '' },
  { description: 'lone surrogates and controls', text: '\ud800\u001b[31m\udfff', redacted: '\ud800\u001b[31m\udfff' },
];

for (const c of CASES) {
  test(`the redactor takes a secret out ${c.description}`, () => {
    expect(redact(c.text)).toBe(c.redacted);
  });
}

const SECRETS = [
  { name: 'admin', value: ADMIN, marker: '$TOKEN' },
  { name: 'forbidden', value: FORBIDDEN, marker: '$FORBIDDEN_TOKEN' },
  { name: 'signup', value: SIGNUP, marker: '$SIGNUP_TOKEN_1' },
];

// Each form the self-tests search the run's output for, at the start, in the middle and at the end of a
// text (a part of the secret only at the end, where a cut leaves it): the redactor leaves none of them
// behind, and leaves the words around them alone.
for (const secret of SECRETS) {
  test(`no written form of the ${secret.name} secret survives the redactor, wherever it stands`, () => {
    const left: string[] = [];
    for (const { form, text, part } of writtenForms(secret.value)) {
      for (const placed of part ? [text, `before ${text}`] : [text, `before ${text}`, `${text} after`, `before ${text} after`]) {
        const out = redact(placed);
        const found = writtenForms(secret.value)
          .filter((f) => out.includes(f.text))
          .map((f) => f.form);
        if (found.length > 0) left.push(`${form} in ${JSON.stringify(placed)} left ${found.join(', ')}`);
        if (placed.startsWith('before ') && !out.startsWith('before ')) left.push(`${form}: the words before were changed`);
      }
    }
    expect(left).toEqual([]);
  });
}

test('a secret straddling a cut is replaced before the cut; the cut never splits a marker', () => {
  const secrets = createSecrets(CONFIG);
  for (let at = 180; at <= 200; at++) {
    const text = `${'x'.repeat(at)}${ADMIN}${'y'.repeat(300)}`;
    const shown = cut(text, secrets, 200);
    expect(shown).not.toContain(ADMIN.slice(0, 4));
    expect(shown).toMatch(/^x+(\$TOKEN)?y*… \(\d+ characters in all\)$/);
  }
});

const REFUSED: [string, string][] = [
  ['1', 'it has fewer than 8 characters'],
  ['"', 'it has fewer than 8 characters'],
  [':', 'it has fewer than 8 characters'],
  ['true', 'it has fewer than 8 characters'],
  ['admin', 'it has fewer than 8 characters'],
  ['abcdefg', 'it has fewer than 8 characters'],
  ['aaaaaaaaaaaaaaaa', 'it has fewer than 4 different characters'],
  ['abababababab', 'it has fewer than 4 different characters'],
  ['abcd\\efgh', "it holds a \\ or &, which the reports' own escaping could spell out"],
  ['abcd&efgh', "it holds a \\ or &, which the reports' own escaping could spell out"],
];

for (const [token, reason] of REFUSED) {
  test(`a token too short or too simple to redact safely is refused: ${JSON.stringify(token)}`, () => {
    expect(unsafeToRedact(token)).toBe(reason);
  });
}

test('the reference fixtures and the tokens of these tests can be redacted safely', () => {
  const tokens = [
    REFERENCE_FIXTURES.adminToken,
    REFERENCE_FIXTURES.forbiddenToken,
    REFERENCE_FIXTURES.viewerToken,
    ...REFERENCE_FIXTURES.signupTokens,
    ADMIN,
    FORBIDDEN,
    SIGNUP,
    'abcdefgh',
  ];
  expect(tokens.filter((t) => unsafeToRedact(t) !== undefined)).toEqual([]);
});
