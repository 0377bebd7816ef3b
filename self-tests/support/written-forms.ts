// Every written form of a secret that a self-test searches for, derived here from the secret alone and
// independently of the redactor: finding any of them in what a run wrote is a leak.

export interface WrittenForm {
  /** What kind of spelling it is, for the message of a failing test. */
  form: string;
  text: string;
  /** A part of the secret, which is redacted where a text ends in it (where it may have been cut), not inside a text. */
  part?: boolean;
}

const hex = (code: number, upper: boolean) => (upper ? code.toString(16).toUpperCase() : code.toString(16)).padStart(2, '0');

/** Each character as \uXXXX, in either case of hex digits. */
export const unicodeEscaped = (text: string, upper = false) => [...text].map((c) => `\\u${hex(c.charCodeAt(0), upper).padStart(4, '0')}`).join('');

/** Each character percent-encoded, in either case, whether or not a URL needs it. */
export const percentEncodedAll = (text: string, upper = true) => [...Buffer.from(text, 'utf8')].map((b) => `%${hex(b, upper)}`).join('');

/** As encodeURIComponent writes it, with its hex digits in lower case. */
export const percentLower = (text: string) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());

/** As a form (application/x-www-form-urlencoded, URLSearchParams) writes a value: a space as "+", the rest percent-encoded. */
export const formEncoded = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);

/** The JSON string's inside, and the same with "/" escaped as "\/". */
export const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
export const jsonSlashEscaped = (text: string) => jsonEscaped(text).replace(/\//g, '\\/');

/**
 * The characters of the base64 of `text` that only its bytes decide, when it starts at byte `align` (0, 1
 * or 2) of a group of three in a longer encoded text: what any base64 holding it contains.
 */
export function base64Core(text: string, align: number, url = false): string {
  const bytes = Buffer.from(text, 'utf8');
  const encoded = Buffer.concat([Buffer.alloc(align), bytes]).toString(url ? 'base64url' : 'base64');
  return encoded.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + bytes.length)) / 6));
}

/** The base64 of `text` placed after `before` and followed by `after`, as a whole encoded text. */
export const base64Around = (before: string, text: string, after: string, url = false) =>
  Buffer.from(`${before}${text}${after}`).toString(url ? 'base64url' : 'base64');

/** `text` in lines of `width` characters joined by `eol`, as MIME (76, CRLF) and PEM (64, LF) wrap base64. */
export const wrapped = (text: string, width: number, eol: string) => (text.match(new RegExp(`[^]{1,${width}}`, 'g')) ?? []).join(eol);

/** Every spelling searched for: raw, in either letter case, JSON-escaped, percent-encoded, form-encoded, partly escaped, HTML references, its bytes in hex, base64 and base64url at three alignments, and the start of it alone. */
export function writtenForms(secret: string, prefixChars = 8): WrittenForm[] {
  const forms: WrittenForm[] = [
    { form: 'raw', text: secret },
    { form: 'JSON-escaped', text: jsonEscaped(secret) },
    { form: 'JSON-escaped with \\/', text: jsonSlashEscaped(secret) },
    { form: '\\uXXXX, lower-case hex', text: unicodeEscaped(secret) },
    { form: '\\uXXXX, upper-case hex', text: unicodeEscaped(secret, true) },
    { form: 'percent-encoded', text: encodeURIComponent(secret) },
    { form: 'percent-encoded, lower-case hex', text: percentLower(secret) },
    { form: 'every character percent-encoded', text: percentEncodedAll(secret) },
    { form: 'every character percent-encoded, lower-case hex', text: percentEncodedAll(secret, false) },
    { form: 'percent-encoded inside JSON', text: encodeURIComponent(secret).replace(/%/g, '\\u0025') },
    { form: 'in upper case', text: secret.toUpperCase() },
    { form: 'in lower case', text: secret.toLowerCase() },
    { form: 'percent-encoded, in upper case', text: encodeURIComponent(secret).toUpperCase() },
    { form: 'form-encoded, a space as +', text: formEncoded(secret) },
    { form: 'a space as +, nothing else encoded', text: secret.replace(/ /g, '+') },
    // A secret that holds what a reader decodes ("~1", "%41") keeps it, while another character is escaped.
    { form: 'its last character percent-encoded', text: secret.slice(0, -1) + percentEncodedAll(secret.slice(-1)) },
    { form: 'its last character as \\uXXXX', text: secret.slice(0, -1) + unicodeEscaped(secret.slice(-1)) },
    { form: 'HTML decimal references', text: [...secret].map((c) => `&#${c.codePointAt(0)};`).join('') },
    { form: 'HTML hex references', text: [...secret].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('') },
    { form: 'its bytes in hex', text: Buffer.from(secret, 'utf8').toString('hex') },
    { form: 'its bytes in hex, upper case', text: Buffer.from(secret, 'utf8').toString('hex').toUpperCase() },
    { form: `its first ${prefixChars} characters`, text: secret.slice(0, prefixChars), part: true },
    { form: `its first ${prefixChars} characters, percent-encoded`, text: encodeURIComponent(secret.slice(0, prefixChars)), part: true },
    { form: `its first ${prefixChars} characters, in upper case`, text: secret.slice(0, prefixChars).toUpperCase(), part: true },
  ];
  for (const [spelling, text] of [
    ['', secret],
    [' of its percent-encoding', encodeURIComponent(secret)],
    [' of its form encoding', formEncoded(secret)],
  ]) {
    for (const align of [0, 1, 2]) {
      forms.push({ form: `base64${spelling} at byte ${align} of a group`, text: base64Core(text, align) });
      forms.push({ form: `base64url${spelling} at byte ${align} of a group`, text: base64Core(text, align, true) });
    }
  }
  const seen = new Set<string>();
  return forms.filter((f) => !seen.has(f.text) && seen.add(f.text));
}

// A line break raw, or escaped once or more (\n in a JSON string, \\n in JSON that quotes JSON).
const LINE_BREAKS = /[\r\n]|\\+[rn]/g;

/**
 * `content` with every line break taken out, raw or escaped, so that a form a writer wrapped or split across
 * lines is found too. It is searched besides the content itself, so taking out too much (a backslash and an
 * "n" that were no escape) can only find more.
 */
function joinedLines(content: string | Buffer): string | Buffer {
  // latin1 maps each byte to one unit and back, so a Buffer keeps its bytes, whatever they encode.
  if (Buffer.isBuffer(content)) return Buffer.from(content.toString('latin1').replace(LINE_BREAKS, ''), 'latin1');
  return content.replace(LINE_BREAKS, '');
}

const made = new Map<string, WrittenForm[]>();

/** A secret's written forms, made once: a scan of a run's files asks for them at every file, and a token of 64 KiB has forms of megabytes. */
function formsOf(secret: string): WrittenForm[] {
  let forms = made.get(secret);
  if (!forms) made.set(secret, (forms = writtenForms(secret)));
  return forms;
}

/** Each written form of each secret that occurs in `content`, as it is or with line breaks inserted anywhere in it, named. */
export function formsIn(content: string | Buffer, secrets: { name: string; value: string }[]): string[] {
  const joined = joinedLines(content);
  return secrets.flatMap((s) =>
    formsOf(s.value).flatMap((f) => {
      if (content.includes(f.text)) return [`${s.name} (${f.form})`];
      return joined.includes(f.text) ? [`${s.name} (${f.form}, across line breaks)`] : [];
    }),
  );
}
