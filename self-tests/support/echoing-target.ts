import type { IncomingMessage } from 'node:http';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import type { ReferenceResponse } from '../../reference-server/respond.ts';
import { faithfulAnswer, serveHttp, writeAnswer, type LoopbackServer } from './hostile-servers.ts';
import { base64Around, formEncoded, jsonEscaped, jsonSlashEscaped, percentEncodedAll, percentLower, unicodeEscaped, wrapped } from './written-forms.ts';

// A target that quotes back every secret it is sent, in every spelling and everywhere the suite quotes
// it: bodies, values that break a clause, field names, header values, a redirect, JSON that does not parse,
// and across each place where the suite cuts what it quotes.

/** The credentials and signup secrets a run is configured with. */
export interface Secrets {
  admin: string;
  forbidden: string;
  signup: string[];
}

const PROJECTS_PATH = '/api/admin/projects';
const TOKEN_PATH = '/api/admin/invite-link/tokens/';

// Where the suite cuts what it quotes (harness/judging/verdicts.ts): a received value, a reason, a body excerpt,
// and the part of a body redacted before its excerpt is cut. A secret is echoed across each.
const RECEIVED_CUT = 200;
const REASON_CUT = 1000;
const BODY_CUT = 2000;
const BODY_REDACTED = 64 * 1024;
/** How far before a cut an echoed secret starts: a cut made before redacting would leave more than a prefix of 8 characters. */
const ACROSS = 12;

// What a wrapped base64 spelling encodes before the secret: 30 bytes, so that the secret's encoding starts at
// character 40 and the first line ends inside it, at 64 (PEM) or 76 (MIME), for a secret of 30 characters or more.
const WRAP_LEAD = 'credential-as-sent-by-client: ';

/** The secret wrapped across lines: its base64 as MIME and PEM wrap it, and itself split in two; raw, and as \n escapes in JSON strings. */
function wrappedSpellings(secret: string): string[] {
  const encoded = base64Around(WRAP_LEAD, secret, '');
  const split = `${secret.slice(0, secret.length >> 1)}\n${secret.slice(secret.length >> 1)}`;
  return [
    wrapped(encoded, 76, '\r\n'),
    `-----BEGIN CREDENTIAL-----\n${wrapped(encoded, 64, '\n')}\n-----END CREDENTIAL-----`,
    split,
    `"${wrapped(encoded, 76, '\\r\\n')}"`,
    `"${wrapped(encoded, 64, '\\n')}"`,
    JSON.stringify(split),
  ];
}

/**
 * The spellings of a secret this target writes as text, each a form self-tests/support/written-forms.ts
 * searches for, one it contains, or one of these with line breaks inserted.
 */
export function spellings(secret: string): string[] {
  // Only the first character a URL reserves is encoded, the rest left as they are.
  const partly = secret.replace(/[^A-Za-z0-9._~-]/, (c) => percentEncodedAll(c, false));
  return [
    secret,
    jsonSlashEscaped(secret),
    unicodeEscaped(secret),
    unicodeEscaped(secret, true),
    encodeURIComponent(secret),
    percentLower(secret),
    percentEncodedAll(secret),
    partly,
    encodeURIComponent(encodeURIComponent(secret)),
    `Basic ${base64Around('user:', secret, '')}`,
    base64Around('', secret, ''),
    base64Around('x', secret, 'yz', true),
    base64Around('ab', secret, '', true),
    Buffer.from(encodeURIComponent(secret)).toString('base64'),
    formEncoded(secret),
    secret.toUpperCase(),
    Buffer.from(formEncoded(secret)).toString('base64'),
    [...secret].map((c) => `&#${c.codePointAt(0)};`).join(''),
    [...secret].map((c) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`).join(''),
    ...wrappedSpellings(secret),
  ];
}

/** The secret as JSON strings written with escapes, so that JSON.parse reads the secret itself from them. */
const escapedJsonStrings = (secret: string) => [`"${unicodeEscaped(secret)}"`, `"${unicodeEscaped(secret, true)}"`, `"${jsonSlashEscaped(secret)}"`];

/** A body whose values may be JSON texts written as they are (`rawJson`), escapes and all, for JSON.stringify would write them plainly. */
class BodyText {
  private readonly raws: string[] = [];

  rawJson(text: string): string {
    this.raws.push(text);
    return `\u0000raw${this.raws.length - 1}\u0000`;
  }

  text(body: unknown): string {
    return this.raws.reduce((text, raw, i) => text.split(JSON.stringify(`\u0000raw${i}\u0000`)).join(raw), JSON.stringify(body));
  }
}

/** `text` with a secret echoed so that it starts ACROSS characters before `cut`, padded by `fill` where the text has a place for it. */
function across(cut: number, before: string, after: string, secret: string, fill: string): string {
  return `${before}${fill.repeat(Math.max(0, cut - ACROSS - before.length))}${secret}${after}`;
}

function swapAll(text: string, pairs: [string, string][]): string {
  return pairs.reduce((out, [from, to]) => out.split(from).join(to), text);
}

interface Echoed {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** A redirect whose location, quoted in a reason, holds the token across the reason's cut. */
function redirect(req: IncomingMessage, quoted: string): Echoed {
  const before = `answered 302, a redirect to http://127.0.0.1:9/login?next=${encodeURIComponent(req.url ?? '/')}&pad=`;
  const location = across(REASON_CUT, before, `&b=${base64Around('', quoted, '', true)}`, `&t=${quoted}`, 'p').slice('answered 302, a redirect to '.length);
  return { status: 302, headers: { location }, text: '' };
}

function errorAnswer(answer: ReferenceResponse, quoted: string): Echoed {
  const body = structuredClone(answer.body) as Record<string, unknown>;
  const out = new BodyText();
  body.message = `the token "${quoted}" may not do this; as sent: ${spellings(quoted).join(' ')}`;
  body.escaped = escapedJsonStrings(quoted).map((s) => out.rawJson(s));
  if (answer.status === 401) return { status: 401, headers: answer.headers, text: out.text(body) };
  body.name = `NoAccessError for ${quoted}`;
  const contentType = `${JSON_TYPE}; requested-by=${quoted}; b=${base64Around('', quoted, '')}; p=${percentLower(quoted)}`;
  return { status: 403, headers: { 'content-type': contentType }, text: out.text(body) };
}

/** Refuses the projects to a forbidden token with a server error whose body holds the token across the excerpt's cut. */
function unavailable(quoted: string): Echoed {
  const before = '{"name":"Unavailable","detail":"';
  return {
    status: 503,
    headers: { 'content-type': JSON_TYPE },
    text: across(BODY_CUT, before, `","message":"backend refused token ${jsonEscaped(quoted)}"}`, jsonEscaped(quoted), 'd'),
  };
}

function notFound(answer: ReferenceResponse, quoted: string): Echoed {
  const body = {
    ...(answer.body as Record<string, unknown>),
    name: `NotFoundError ${base64Around('', quoted, '')}`,
    message: `no such token; you asked as ${spellings(quoted).join(' ')}`,
  };
  return { status: 404, headers: { 'content-type': `${JSON_TYPE}; by=${percentLower(quoted)}` }, text: JSON.stringify(body) };
}

/** A signup token whose values and field names quote its own secret and the admin token; the last one's body does not parse, at the secret. */
function tokenAnswer(answer: ReferenceResponse, secret: string, quoted: string, last: boolean): Echoed {
  if (last) return { status: 200, headers: answer.headers, text: `{"secret":${secret},"by":${quoted}}` };
  const body = structuredClone(answer.body) as Record<string, unknown>;
  const out = new BodyText();
  Object.assign(body, {
    url: `${body.url}&by=${quoted}`,
    // Not a date-time: the value is quoted as received, and its first part is cut.
    expiresAt: [quoted, ...spellings(secret), ...spellings(quoted)].join(' '),
    [`x-${secret}`]: 1,
    [`x-${encodeURIComponent(quoted)}`]: 2,
    echo: [...escapedJsonStrings(secret), ...escapedJsonStrings(quoted)].map((s) => out.rawJson(s)),
  });
  return { status: 200, headers: answer.headers, text: out.text(body) };
}

/** Projects whose modes quote the admin token (one across the received value's cut), and a body that holds it across the redacted part's edge. */
function projectsAnswer(answer: ReferenceResponse, quoted: string): Echoed {
  const body = structuredClone(answer.body) as { projects: Record<string, unknown>[] };
  body.projects[0].mode = encodeURIComponent(quoted);
  body.projects[0][`x-${base64Around('', quoted, '', true)}`] = true;
  body.projects[1].mode = across(RECEIVED_CUT, '"', '', quoted, 'm').slice(1);
  const text = JSON.stringify(body);
  return { status: 200, headers: answer.headers, text: across(BODY_REDACTED, `${text.slice(0, -1)},"padding":"`, '"}', jsonEscaped(quoted), 'y') };
}

function echoed(req: IncomingMessage, answer: ReferenceResponse, secrets: Secrets): Echoed {
  const url = new URL(req.url ?? '/', 'http://loopback.invalid');
  const quoted = req.headers.authorization ?? '(none)';
  const isProjects = url.pathname === PROJECTS_PATH;
  if (answer.status === 200 && isProjects && url.searchParams.get('archived') === 'false') return redirect(req, quoted);
  if (answer.status === 403 && isProjects) return unavailable(quoted);
  if (answer.status === 401 || answer.status === 403) return errorAnswer(answer, quoted);
  if (answer.status === 404) return notFound(answer, quoted);
  if (answer.status === 200 && url.pathname.startsWith(TOKEN_PATH)) {
    const secret = decodeURIComponent(url.pathname.slice(TOKEN_PATH.length));
    return tokenAnswer(answer, secret, quoted, secret === secrets.signup.at(-1));
  }
  if (answer.status === 200 && isProjects && url.search === '') return projectsAnswer(answer, quoted);
  return { status: answer.status, headers: answer.headers, text: JSON.stringify(answer.body) };
}

/**
 * Accepts its own distinctive credentials and signup secrets in place of the reference ones, and quotes
 * them back everywhere it can, in every spelling of `spellings`: error messages and names, URL fields,
 * values that break a clause (so they land in violations), field names (so they land in observations),
 * a redirect's location, version and content-type headers, JSON escapes in raw JSON, a body that does
 * not parse where the secret stands, and across every cut the suite makes.
 */
export function echoingSecrets(secrets: Secrets): Promise<LoopbackServer> {
  const toReference: [string, string][] = [
    [secrets.admin, REFERENCE_FIXTURES.adminToken],
    [secrets.forbidden, REFERENCE_FIXTURES.forbiddenToken],
    ...secrets.signup.map((s, i): [string, string] => [s, REFERENCE_FIXTURES.signupTokens[i]]),
  ];
  const fromReference = toReference.map(([ours, theirs]): [string, string] => [theirs, ours]);
  return serveHttp((req, res) => {
    const authorization = req.headers.authorization;
    const translated = {
      method: req.method,
      url: swapAll(
        req.url ?? '/',
        toReference.map(([ours, theirs]): [string, string] => [encodeURIComponent(ours), theirs]),
      ),
      headers: { ...req.headers, authorization: authorization === undefined ? undefined : swapAll(authorization, toReference) },
    };
    const faithful = JSON.parse(
      swapAll(
        JSON.stringify(faithfulAnswer(translated)),
        fromReference.map(([theirs, ours]): [string, string] => [theirs, jsonEscaped(ours)]),
      ),
    ) as ReferenceResponse;
    const answer = echoed(req, faithful, secrets);
    const as = authorization ?? 'nobody';
    const headers = {
      ...answer.headers,
      'x-app-version': `7.0.0 (as ${as}; ${base64Around('', as, '')})`,
      server: `echo/1 (${percentLower(as)})`,
      'x-token-version': unicodeEscaped(as),
    };
    writeAnswer(res, answer.status, headers, Buffer.from(answer.text));
  });
}
