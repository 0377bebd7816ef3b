import { expect, test } from '@playwright/test';
import os from 'node:os';
import { loadConfig } from '../../harness/config/config.ts';
import { forbiddenCredentials } from '../../harness/config/tokens.ts';
import { cut } from '../../harness/judging/verdicts.ts';
import { createRedactor, createSecrets, OTHERWISE_WRITTEN as OTHER } from '../../harness/secrets/redact.ts';
import { unsafeToRedact } from '../../harness/secrets/secret-rule.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { spellings } from '../support/echoing-target.ts';
import { base64Around, formsIn, jsonEscaped, percentEncodedAll, percentLower, unicodeEscaped, writtenForms, wrapped } from '../support/written-forms.ts';

// The redactor as data: texts and what they become. A secret is found in every spelling a target may
// give it, and nothing else is touched.

// Shaped so that every encoding changes it: "*" and ":" as in an Unleash token, "/" that JSON may escape
// and a URL must, '"' that JSON must.
const ADMIN = '*:*.9c4e-7a1f/2b"d8';
const FORBIDDEN = 'user:5e0c3b7a91d4';
const SIGNUP = 'b5f1c2d4e6a8091b2c3d4e5f60718293';
// Holds what a layer would decode: "~1" is a "/" in a JSON pointer.
const SIGNUP_2 = 'invite~1.7c4e9d3b';
// Holds a space, which a form writes as "+", and a percent-escape of its own.
const SIGNUP_3 = 'Bearer 7f%41e9.c2d1';
const CONFIG = { adminToken: ADMIN, forbidden: forbiddenCredentials([FORBIDDEN], [], []), signupTokens: [SIGNUP, SIGNUP_2, SIGNUP_3] };
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
  { description: 'escaped twice, as the JSON text of a value that holds escapes', text: JSON.stringify(unicodeEscaped(ADMIN)), redacted: `"$TOKEN${OTHER}"` },
  { description: 'percent-encoded', text: `?t=${encodeURIComponent(ADMIN)}&x=1`, redacted: '?t=$TOKEN&x=1' },
  { description: 'percent-encoded in lower case', text: `?t=${percentLower(ADMIN)}&x=1`, redacted: '?t=$TOKEN&x=1' },
  { description: 'partly percent-encoded, in both cases', text: '?t=*%3a*.9c4e-7a1f/2b%22d8', redacted: '?t=$TOKEN' },
  { description: 'every character percent-encoded', text: `/x/${percentEncodedAll(ADMIN)}/y`, redacted: '/x/$TOKEN/y' },
  { description: 'percent-encoded twice', text: `?next=${encodeURIComponent(encodeURIComponent(ADMIN))}`, redacted: '?next=$TOKEN' },
  { description: 'percent-encoded inside JSON', text: `"${encodeURIComponent(ADMIN).replace(/%/g, '\\u0025')}"`, redacted: `"$TOKEN${OTHER}"` },
  {
    description: 'as HTML character references',
    text: '<input value="&ast;&#58;&#x2a;.9c4e-7a1f&sol;2b&quot;d8">',
    redacted: `<input value="$TOKEN${OTHER}">`,
  },
  { description: 'in a JSON pointer, "/" as ~1', text: '/projects/0/*:*.9c4e-7a1f~12b"d8', redacted: '/projects/0/$TOKEN' },
  { description: 'in base64, as a Basic credential', text: `Basic ${b64(`admin:${ADMIN}`)}`, redacted: 'Basic YWRtaW46$TOKEN' },
  { description: 'in base64, alone and padded', text: `t=${b64(ADMIN)};`, redacted: 't=$TOKEN;' },
  { description: 'in base64url, alone without padding', text: `t=${b64url(ADMIN)};`, redacted: 't=$TOKEN;' },
  { description: 'in base64, from the second byte of a group', text: `x ${base64Around('x', ADMIN, 'yz')} y`, redacted: 'x e$TOKEN5eg== y' },
  { description: 'in base64url, from the third byte of a group', text: `x ${base64Around('xy', ADMIN, '', true)} y`, redacted: 'x eH$TOKEN y' },
  { description: 'in base64 inside a JSON string with / escaped', text: JSON.stringify(b64(`u:${ADMIN}`)).replace(/\//g, '\\/'), redacted: '"dT$TOKEN"' },
  { description: 'the base64 of its percent-encoding', text: b64(encodeURIComponent(ADMIN)), redacted: `$TOKEN${OTHER}` },
  { description: 'a prefix of 8 characters at the end of a text', text: `as ${ADMIN.slice(0, 8)}`, redacted: 'as $TOKEN' },
  { description: 'a longer prefix, percent-encoded, at the end of a text', text: `as ${encodeURIComponent(ADMIN.slice(0, 15))}`, redacted: 'as $TOKEN' },
  { description: 'a prefix cut inside an escape', text: `"${unicodeEscaped(ADMIN).slice(0, 58)}`, redacted: '"$TOKEN' },
  { description: 'a suffix of 8 characters at the start of a text', text: `${ADMIN.slice(-8)}" was sent`, redacted: '$TOKEN" was sent' },
  {
    description: 'a suffix of 8 characters in upper case at the start of a text',
    text: `${ADMIN.slice(-8).toUpperCase()}" was sent`,
    redacted: '$TOKEN" was sent',
  },
  { description: 'in upper case', text: `token ${SIGNUP.toUpperCase()} was sent`, redacted: 'token $SIGNUP_TOKEN_1 was sent' },
  { description: 'a prefix of 7 characters at the end, too short to tell', text: `as ${ADMIN.slice(0, 7)}`, redacted: `as ${ADMIN.slice(0, 7)}` },
  {
    description: 'a prefix of 8 characters inside a text, where nothing was cut',
    text: `as ${ADMIN.slice(0, 8)} and more`,
    redacted: `as ${ADMIN.slice(0, 8)} and more`,
  },
  { description: 'two secrets side by side', text: `${ADMIN}${SIGNUP}`, redacted: '$TOKEN$SIGNUP_TOKEN_1' },
  { description: 'a forbidden credential, percent-encoded', text: `by ${encodeURIComponent(FORBIDDEN)}.`, redacted: 'by $FORBIDDEN_TOKEN.' },
  { description: 'a signup secret in its path', text: `/api/admin/invite-link/tokens/${SIGNUP}`, redacted: '/api/admin/invite-link/tokens/$SIGNUP_TOKEN_1' },
  { description: 'a signup secret in upper-case percent-encoding of every character', text: percentEncodedAll(SIGNUP), redacted: `$SIGNUP_TOKEN_1${OTHER}` },
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

// A value that spells a secret otherwise is not the secret: its marker says so, so that no value that
// differed from a secret reads as equal to it, in a report or when a bundle is judged again.
const WHOLE_VALUES: { description: string; text: string; redacted: string }[] = [
  { description: 'the secret itself, as the whole text', text: SIGNUP, redacted: '$SIGNUP_TOKEN_1' },
  { description: 'the secret itself, a whole JSON string', text: `{"secret":"${SIGNUP}"}`, redacted: '{"secret":"$SIGNUP_TOKEN_1"}' },
  {
    description: 'the secret JSON-escaped, a whole JSON string whose value is the secret',
    text: `{"secret":"${unicodeEscaped(SIGNUP)}"}`,
    redacted: '{"secret":"$SIGNUP_TOKEN_1"}',
  },
  { description: 'in base64, the whole text', text: b64(SIGNUP), redacted: `$SIGNUP_TOKEN_1${OTHER}` },
  { description: 'percent-encoded, a whole JSON string', text: `{"secret":"${percentEncodedAll(SIGNUP)}"}`, redacted: `{"secret":"$SIGNUP_TOKEN_1${OTHER}"}` },
  {
    description: 'as HTML references, a whole JSON string',
    text: `{"secret":"${[...SIGNUP].map((c) => `&#${c.codePointAt(0)};`).join('')}"}`,
    redacted: `{"secret":"$SIGNUP_TOKEN_1${OTHER}"}`,
  },
  { description: 'its first 8 characters, the whole text', text: SIGNUP.slice(0, 8), redacted: `$SIGNUP_TOKEN_1${OTHER}` },
  { description: 'inside a longer text, where no value is whole', text: `secret ${b64(SIGNUP)} sent`, redacted: 'secret $SIGNUP_TOKEN_1 sent' },
];

for (const c of WHOLE_VALUES) {
  test(`a whole value that spells a secret otherwise is marked so, the secret itself is not: ${c.description}`, () => {
    expect(redact(c.text)).toBe(c.redacted);
  });
}

// Secrets whose spellings overlap in a text: one starts inside another, or one is the start of another.
// Every needle is looked for at every place, not only after the end of the last one found.
const OVERLAPPING = createRedactor({ adminToken: 'key-AAAA1234BBBB', forbidden: [], signupTokens: ['1234BBBBzz-99xx', 'key-AAAA1234'] });
const OVERLAP_CASES: { description: string; text: string; redacted: string }[] = [
  { description: 'one starting inside the other', text: 'x key-AAAA1234BBBBzz-99xx y', redacted: 'x $TOKEN y' },
  { description: 'the second alone', text: 'x 1234BBBBzz-99xx y', redacted: 'x $SIGNUP_TOKEN_1 y' },
  { description: 'the shorter, the start of the longer, alone', text: 'x key-AAAA1234 y', redacted: 'x $SIGNUP_TOKEN_2 y' },
  {
    description: 'one starting inside the other, in base64',
    text: `t=${b64('key-AAAA1234BBBBzz-99xx')};`,
    redacted: 't=$TOKEN;',
  },
];

for (const c of OVERLAP_CASES) {
  test(`the redactor takes out secrets that overlap: ${c.description}`, () => {
    expect(OVERLAPPING(c.text)).toBe(c.redacted);
  });
}

test('a text that repeats the pattern of a secret becomes one marker, however often the secret starts in it', () => {
  const periodic = createRedactor({ adminToken: 'abcdabcdabcd', forbidden: [], signupTokens: [] });
  expect(periodic(`x ${'abcd'.repeat(10_000)} y`)).toBe('x $TOKEN y');
  expect(periodic(`x ${'abcd'.repeat(2)}abc y`)).toBe(`x ${'abcd'.repeat(2)}abc y`);
});

test('where a secret starts as the base64 of another does, the character before, which carries bits of the other, goes too', () => {
  // "FiY2RlZmdoaWprb" is the part of base64("x" + "abcdefghijkl") that only the secret's bytes decide; the
  // "G" before it holds bits of its first byte.
  const redactor = createRedactor({ adminToken: 'FiY2RlZmdoaWprbQQQQ', forbidden: [], signupTokens: ['abcdefghijkl'] });
  expect(redactor('t=eGFiY2RlZmdoaWprbQQQQ;')).toBe('t=e$SIGNUP_TOKEN_1;');
});

const SECRETS = [
  { name: 'admin', value: ADMIN, marker: '$TOKEN' },
  { name: 'forbidden', value: FORBIDDEN, marker: '$FORBIDDEN_TOKEN' },
  { name: 'signup', value: SIGNUP, marker: '$SIGNUP_TOKEN_1' },
  { name: 'second signup', value: SIGNUP_2, marker: '$SIGNUP_TOKEN_2' },
  { name: 'third signup', value: SIGNUP_3, marker: '$SIGNUP_TOKEN_3' },
];

// Each form the self-tests search the run's output for, at the start, in the middle and at the end of a
// text (a part of the secret only at the end, where a cut leaves it): the redactor leaves none of them
// behind, and leaves the words around them alone.
for (const secret of SECRETS) {
  test(`no written form of the ${secret.name} secret survives the redactor, wherever it stands`, () => {
    const left: string[] = [];
    // Made once: every form is looked for in every text it is placed in.
    const forms = writtenForms(secret.value);
    for (const { form, text, part } of forms) {
      for (const placed of part ? [text, `before ${text}`] : [text, `before ${text}`, `${text} after`, `before ${text} after`]) {
        const out = redact(placed);
        const found = forms.filter((f) => out.includes(f.text)).map((f) => f.form);
        if (found.length > 0) left.push(`${form} in ${JSON.stringify(placed)} left ${found.join(', ')}`);
        if (placed.startsWith('before ') && !out.startsWith('before ')) left.push(`${form}: the words before were changed`);
      }
    }
    expect(left).toEqual([]);
  });
}

// ---- Wrapped across lines ----

// The base64 of 45 bytes, then the admin token's 19, then 60 more: the token's bits are in characters 60 to 85
// (85 shared with the byte after), so a line of 64 (PEM) or 76 (MIME) characters ends inside them.
const ENCODED = b64(`${'x'.repeat(45)}${ADMIN}${'y'.repeat(60)}`);
const ENCODED_URL = b64url(`${'x'.repeat(45)}${ADMIN}${'y'.repeat(60)}`);
const [BEFORE, AFTER] = [ENCODED.slice(0, 60), ENCODED.slice(86)];
const [BEFORE_URL, AFTER_URL] = [ENCODED_URL.slice(0, 60), ENCODED_URL.slice(86)];
/** The text with a line break put in at `at`. */
const split = (text: string, at: number, eol = '\n') => `${text.slice(0, at)}${eol}${text.slice(at)}`;

const WRAPPED: { description: string; text: string; redacted: string }[] = [
  {
    description: 'in base64, in MIME lines of 76 with CRLF',
    text: wrapped(ENCODED, 76, '\r\n'),
    redacted: `${BEFORE}$TOKEN${AFTER.slice(0, 66)}\r\n${AFTER.slice(66)}`,
  },
  {
    description: 'in base64, in PEM lines of 64 with LF',
    text: wrapped(ENCODED, 64, '\n'),
    redacted: `${BEFORE}$TOKEN${AFTER.slice(0, 42)}\n${AFTER.slice(42)}`,
  },
  {
    description: 'in base64, a PEM block between its header and footer lines',
    text: `-----BEGIN TOKEN-----\r\n${wrapped(ENCODED, 64, '\r\n')}\r\n-----END TOKEN-----\r\n`,
    redacted: `-----BEGIN TOKEN-----\r\n${BEFORE}$TOKEN${AFTER.slice(0, 42)}\r\n${AFTER.slice(42)}\r\n-----END TOKEN-----\r\n`,
  },
  {
    description: 'in base64url, in lines of 64 with CR alone',
    text: wrapped(ENCODED_URL, 64, '\r'),
    redacted: `${BEFORE_URL}$TOKEN${AFTER_URL.slice(0, 42)}\r${AFTER_URL.slice(42)}`,
  },
  {
    description: 'in base64, in MIME lines as \\r\\n escapes inside a JSON string',
    text: `{"cert":"${wrapped(ENCODED, 76, '\\r\\n')}"}`,
    redacted: `{"cert":"${BEFORE}$TOKEN${AFTER.slice(0, 66)}\\r\\n${AFTER.slice(66)}"}`,
  },
  {
    description: 'in base64url, in PEM lines as \\n escapes inside a JSON string',
    text: `{"cert":"${wrapped(ENCODED_URL, 64, '\\n')}"}`,
    redacted: `{"cert":"${BEFORE_URL}$TOKEN${AFTER_URL.slice(0, 42)}\\n${AFTER_URL.slice(42)}"}`,
  },
  { description: 'in base64, a line break in the character it shares with the text before', text: split(b64(`u:${ADMIN}`), 3), redacted: 'dT$TOKEN' },
  { description: 'as it is, split by LF', text: `token ${split(ADMIN, 8)} was sent`, redacted: 'token $TOKEN was sent' },
  { description: 'as it is, split by CRLF after its first character', text: `token ${split(ADMIN, 1, '\r\n')} was sent`, redacted: 'token $TOKEN was sent' },
  { description: 'as it is, split by a blank line', text: `token ${split(ADMIN, 18, '\n\n')}`, redacted: 'token $TOKEN' },
  { description: 'split by LF, inside a JSON string as \\n', text: JSON.stringify({ t: split(ADMIN, 8) }), redacted: `{"t":"$TOKEN${OTHER}"}` },
  {
    description: 'JSON-escaped, then wrapped, a line break cutting \\uXXXX',
    text: `"${wrapped(unicodeEscaped(ADMIN), 76, '\n')}"`,
    redacted: `"$TOKEN${OTHER}"`,
  },
  { description: 'JSON-escaped, then split between \\ and "', text: `{"t":"${split(jsonEscaped(ADMIN), 18, '\r\n')}"}`, redacted: `{"t":"$TOKEN${OTHER}"}` },
  { description: 'percent-encoded, a line break cutting %3A', text: `?t=${split(encodeURIComponent(ADMIN), 3, '\r\n')}&x=1`, redacted: '?t=$TOKEN&x=1' },
  {
    description: 'as HTML character references, a line break cutting one',
    text: '<input value="&ast;&#5\n8;&#x2a;.9c4e-7a1f&sol;2b&quot;d8">',
    redacted: `<input value="$TOKEN${OTHER}">`,
  },
  { description: 'a signup secret, split by LF', text: `/tokens/${split(SIGNUP, 16)}`, redacted: '/tokens/$SIGNUP_TOKEN_1' },
  {
    description: 'holding "~1", split by \\n inside a JSON string',
    text: JSON.stringify({ t: split(SIGNUP_2, 9) }),
    redacted: `{"t":"$SIGNUP_TOKEN_2${OTHER}"}`,
  },
  {
    description: 'holding "~1", split by \\\\n in JSON quoted as a JSON string',
    text: JSON.stringify(JSON.stringify({ t: split(SIGNUP_2, 9) })),
    redacted: JSON.stringify('{"t":"$SIGNUP_TOKEN_2"}'),
  },
  { description: 'holding "~1", split by %0D%0A in a URL', text: `?t=${split(SIGNUP_2, 9, '%0D%0A')}&x=1`, redacted: '?t=$SIGNUP_TOKEN_2&x=1' },
  {
    description: 'two secrets side by side in base64, wrapped: their stretches share a character and become one',
    text: wrapped(b64(`${ADMIN}${SIGNUP}`), 64, '\n'),
    redacted: `$TOKEN${OTHER}`,
  },
  { description: 'whole, with line breaks around it left alone', text: `one\r\n${ADMIN}\ntwo\n\nthree\r`, redacted: 'one\r\n$TOKEN\ntwo\n\nthree\r' },
  {
    description: 'nowhere, in lines that are left alone',
    text: 'first\nsecond\r\n\r\nthird %0A \\n &#10;\r',
    redacted: 'first\nsecond\r\n\r\nthird %0A \\n &#10;\r',
  },
];

for (const c of WRAPPED) {
  test(`the redactor takes a secret out across line breaks ${c.description}`, () => {
    expect(redact(c.text)).toBe(c.redacted);
  });
}

// Line breaks as a writer puts them: raw, or as escapes in the JSON string it writes the whole text into.
const LINE_BREAKS: { name: string; eol: string; json: boolean }[] = [
  { name: 'LF', eol: '\n', json: false },
  { name: 'CRLF', eol: '\r\n', json: false },
  { name: '\\n in a JSON string', eol: '\n', json: true },
  { name: '\\r\\n in a JSON string', eol: '\r\n', json: true },
];

/** The text as written: itself, or the inside of the JSON string that holds it. */
const written = (text: string, json: boolean) => (json ? jsonEscaped(text) : text);

// Every written form with a line break put in at every place inside it: the whole of it, line break
// included, becomes the marker, and the words around it stay as they were. A part of a secret counts only
// at the end of a text, so it is tried raw only (a JSON string's closing quote would follow it).
for (const secret of SECRETS) {
  test(`every written form of the ${secret.name} secret is redacted with a line break anywhere in it, and nothing else changes`, () => {
    const wrong: string[] = [];
    for (const { form, text, part } of writtenForms(secret.value)) {
      for (const { name, eol, json } of LINE_BREAKS.filter((b) => !(part && b.json))) {
        for (let at = 1; at < text.length; at++) {
          const placed = part ? `before ${split(text, at, eol)}` : `before ${split(text, at, eol)} after`;
          const want = part ? `before ${secret.marker}` : `before ${secret.marker} after`;
          const out = redact(written(placed, json));
          if (out !== written(want, json)) wrong.push(`${form}, ${name} at ${at}: ${JSON.stringify(out)}`);
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });
}

/** Where unit i of a text lands once it is cut in lines of `width` joined by `eol`. */
const wrappedAt = (i: number, width: number, eol: string) => i + Math.floor(i / width) * eol.length;

// Base64 wrapped as MIME and PEM wrap it, the secret starting at every byte of the first 80, so that each
// alignment meets each place of a line break: exactly the characters that carry the secret's bits, and the
// line breaks among them, become the marker.
for (const [width, eol] of [
  [76, '\r\n'],
  [64, '\n'],
] as const) {
  for (const json of [false, true]) {
    test(`base64 in lines of ${width}${json ? ', as escapes in a JSON string' : ''}: the stretch that carries a secret becomes its marker, wherever it starts`, () => {
      const wrong: string[] = [];
      const lineEnd = written(eol, json);
      for (const secret of SECRETS) {
        for (let lead = 0; lead < 80; lead++) {
          const encoded = b64(`${'x'.repeat(lead)}${secret.value}${'y'.repeat(6)}`);
          const [first, last] = [Math.floor((8 * lead) / 6), Math.ceil((8 * (lead + secret.value.length)) / 6) - 1];
          const text = wrapped(encoded, width, lineEnd);
          const want = `${text.slice(0, wrappedAt(first, width, lineEnd))}${secret.marker}${text.slice(wrappedAt(last, width, lineEnd) + 1)}`;
          if (redact(text) !== want) wrong.push(`${secret.name} after ${lead} bytes: ${JSON.stringify(redact(text))}`);
        }
      }
      expect(wrong.slice(0, 10)).toEqual([]);
    });
  }
}

// The self-tests' leak scanner must see what the redactor must take out, or a leak of it would pass unseen.
test('the leak scanner finds a secret and its base64 at every alignment with a line break anywhere in them', () => {
  const missed: string[] = [];
  for (const secret of SECRETS) {
    const forms = writtenForms(secret.value).filter((f) => f.form === 'raw' || f.form.startsWith('base64'));
    for (const { form, text } of forms) {
      for (const { name, eol, json } of LINE_BREAKS) {
        for (let at = 1; at < text.length; at++) {
          const content = JSON.stringify({ quoted: written(`before ${split(text, at, eol)} after`, json) });
          if (formsIn(content, [secret]).length === 0) missed.push(`${form}, ${name} at ${at}`);
        }
      }
    }
  }
  expect(missed.slice(0, 10)).toEqual([]);
  // Lines that join into no secret are no leak.
  expect(formsIn(JSON.stringify(`one\r\ntwo\nthree ${ADMIN.slice(1)}\n${SIGNUP.slice(0, 7)}`), SECRETS)).toEqual([]);
});

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

// Tokens of any length the configuration takes, 8 bytes to 64 KiB: every written form of a long one is found too
// (the search of a long needle is no expression, which the engine would refuse as too large).
for (const size of [8, 1024, 16 * 1024, 64 * 1024]) {
  test(`no written form of a token of ${size} characters survives the redactor`, () => {
    const token = Array.from({ length: size }, (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789-._~'[(i * 7 + (i >> 5)) % 40]).join('');
    const long = createSecrets({ adminToken: token, forbidden: [], signupTokens: [] });
    // The forms made once, each text redacted once: a form of a 64 KiB token is hundreds of KiB long.
    const whole = writtenForms(token).filter(({ part }) => !part);
    const left = whole
      .filter(({ text }) => {
        const out = long.redact(`before ${text} after`);
        return whole.some((f) => out.includes(f.text));
      })
      .map(({ form }) => form);
    expect(left).toEqual([]);
  });
}

test('a token over 64 KiB is refused in one line that does not quote it', () => {
  const token = 'a1b2c3d4'.repeat(8 * 1024 + 1);
  expect(() => loadConfig({ CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: token }, os.tmpdir())).toThrow(
    `CONFORMANCE_ADMIN_TOKEN is longer than 64 KiB (${token.length} characters); give the token as the deployment issued it`,
  );
});

// A proxy URL's user and password travel as Proxy-Authorization, which a proxy may echo into an answer.
test('the user and password of a proxy URL are secrets: raw, percent-encoded and as a Proxy-Authorization value', () => {
  const network = { proxy: { http: 'http://suite:pr0xy-Passw0rd@proxy.invalid:3128', https: 'http://other:An0ther-Pass@proxy.invalid:3129' } };
  const withProxies = createSecrets({ adminToken: 'admin-token-0123456', forbidden: [], signupTokens: [], network });
  for (const credentials of ['suite:pr0xy-Passw0rd', 'other:An0ther-Pass']) {
    const echoed = `Proxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}; ${credentials}; ${encodeURIComponent(credentials)}`;
    const out = withProxies.redact(echoed);
    expect(out).not.toContain(credentials.split(':')[1]);
    expect(out).not.toContain(Buffer.from(credentials).toString('base64'));
    expect(out).toContain('$PROXY_CREDENTIALS');
  }
});

test('a proxy password too short to hide safely is refused in one line that does not quote it', () => {
  const env = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: 'admin-token-0123456', HTTP_PROXY: 'http://u:pw@proxy.invalid:3128' };
  expect(() => loadConfig(env, os.tmpdir())).toThrow(/^the user and password in HTTP_PROXY cannot be hidden safely in the reports: /);
  expect(() => loadConfig(env, os.tmpdir())).not.toThrow(/pw@|u:pw/);
});

// A token the target's answers spell anyway could not be hidden without changing them, nor the bundle judged again.
for (const token of ['projects', 'Authentication', 'AuthenticationRequired', 'NoAccessError']) {
  test(`a token that is a word of the document, "${token}", is refused in one line that does not quote it`, () => {
    const env = { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_ADMIN_TOKEN: token };
    expect(() => loadConfig(env, os.tmpdir())).toThrow(
      "CONFORMANCE_ADMIN_TOKEN is a word of the document, which the target's answers spell too, so the reports could not hide it without changing them; give the token as the deployment issued it",
    );
  });
}

test("a target's reports hide the run's other targets' tokens too, in their written forms, and its own as its own", () => {
  const eu = { adminToken: 'eu-admin-7f3a9c2e51', forbidden: [], signupTokens: ['eu-signup-b41d77e0'] };
  const us = { adminToken: 'us-admin-0c9d4be812', forbidden: [], signupTokens: ['us-signup-5e2a19c3'] };
  const others = [eu, us];
  const redact = createRedactor({ ...eu, others });
  const text = `${eu.adminToken} ${us.adminToken} ${encodeURIComponent(us.signupTokens[0])} ${Buffer.from(us.adminToken).toString('base64')} ${us.adminToken.slice(0, 10)}`;
  const shown = redact(text);
  for (const token of [eu.adminToken, us.adminToken, us.signupTokens[0]]) expect(shown).not.toContain(token);
  expect(shown.startsWith('$TOKEN $OTHER_TARGET_TOKEN_')).toBe(true);
  expect(shown).not.toContain(Buffer.from(us.adminToken).toString('base64'));
  expect(shown).not.toContain(us.adminToken.slice(0, 10));
  // Targets that share one set of tokens have no other target's to hide: their own are their own.
  expect(createRedactor({ ...eu, others: [eu, { ...eu }] })(text.split(' ')[0])).toBe('$TOKEN');
});

test("the search for other targets' tokens hides every spelling the full search hides, cut by a line break anywhere, short tokens included", () => {
  // The others' tokens are looked for only where a stretch of 8 characters of one of their forms stands: a token
  // of fewer than 16 characters cut in two leaves no such stretch in the text itself, only in its views.
  const eu = { adminToken: 'eu-admin-7f3a9c2e51', forbidden: [], signupTokens: [] };
  let hidden = 0;
  // Collected, then asserted once: thousands of texts, each an assertion of its own would cost more than its search.
  const missed: string[] = [];
  for (const token of ['us-4e1b9c0d2', 'a:*.us4e1b9c0/"x']) {
    const us = { adminToken: token, forbidden: [], signupTokens: [] };
    const [own, other] = [createRedactor(us), createRedactor({ ...eu, others: [eu, us] })];
    for (const spelling of spellings(token))
      for (const lineBreak of ['\r\n', '\\n'])
        for (let at = 1; at < spelling.length; at++) {
          const text = `x ${spelling.slice(0, at)}${lineBreak}${spelling.slice(at)} y`;
          if (!own(text).includes('$TOKEN')) continue;
          hidden += 1;
          if (!other(text).includes('$OTHER_TARGET_TOKEN_')) missed.push(text);
        }
  }
  expect(missed.slice(0, 10)).toEqual([]);
  expect(hidden).toBeGreaterThan(1000);
});
