import { decodedViews, originalSpan, type View } from './decoded-view.ts';
import { needlesOf, type Needle } from './secret-forms.ts';
import { remembered } from './remembered.ts';
import { MIN_SECRET_CHARS, namedSecrets, proxySecrets, type SecretSource } from './secret-rule.ts';

export type Redactor = (text: string) => string;

/** Everything that names the secrets of one target: what stands for each, and how to take them out of text. */
export interface Secrets {
  redact: Redactor;
  /** What stands for a credential's token in a curl line: "$TOKEN", "$FORBIDDEN_TOKEN_SIGNUP", ... */
  placeholderOf(credential: string): string | undefined;
}

/** The markers that stand in for secrets; curl lines use them as shell variables. */
export function secretMarkers(config: SecretSource): [string, string][] {
  const pairs: [string, string][] = namedSecrets(config).map((n) => [n.token, n.placeholder]);
  // A proxy's user:password travels as Proxy-Authorization, which a proxy may echo: its base64 is among its spellings.
  for (const { credentials } of proxySecrets(config)) pairs.push([credentials, '$PROXY_CREDENTIALS']);
  // Longest first, so that where one secret holds another, the whole one names the place.
  return pairs.filter(([secret]) => secret.length > 0).sort((a, b) => b[0].length - a[0].length);
}

/** A stretch of the original text that spells a secret, and the marker it becomes. */
interface Found {
  start: number;
  end: number;
  marker: string;
  /** A part of a secret at an end of the text, rather than the whole secret. */
  edge?: boolean;
}

const BASE64_CHAR = /[A-Za-z0-9+/_-]/;

// The first characters of an escape whose rest a cut took away: "\u00", "%2", "&#4" (a character reference
// is at most 33 characters long, decoded-view.ts).
const OPEN_ESCAPE = /(?:\\(?:u\{?[0-9a-fA-F]{0,5}|x[0-9a-fA-F]?)?|%[0-9a-fA-F]?|&#?[xX]?[0-9a-zA-Z]{0,32}|~)$/;
/** Longer than any OPEN_ESCAPE match: the pattern is tried on this much of the end of a text, not on all of a body. */
const OPEN_ESCAPE_REACH = 40;

/** How many characters at the end of a text are an escape a cut left open. */
const openEscapeLength = (text: string) => OPEN_ESCAPE.exec(text.slice(-OPEN_ESCAPE_REACH))?.[0].length ?? 0;

/** A base64 match reaches over the characters that carry bits of the secret beside it, and over its padding. */
function widened(text: string, from: number, to: number, needle: Needle): [number, number] {
  let [start, end] = [from, to];
  if (needle.before > 0 && start > 0 && BASE64_CHAR.test(text[start - 1])) start--;
  if (needle.after > 0 && end < text.length && BASE64_CHAR.test(text[end])) end++;
  for (let pad = 0; pad < 2 && text[end] === '='; pad++) end++;
  return [start, end];
}

/** Needles found in one pass over a text rather than one pass a needle. */
/**
 * A search for some of the needles: an expression of them all, the place of each tested by one of its own; or,
 * for a needle too long for an expression (the engine refuses a case-insensitive one of a few thousand
 * letters), the needle alone, found with indexOf in the text lower-cased (its letters are ASCII, as a token's).
 */
type Search = { pattern: RegExp; needles: { needle: Needle; marker: string; at: RegExp }[] } | { long: { needle: Needle; marker: string; text: string } };

const REGEXP_SPECIAL = /[\\^$.*+?()[\]{}|/]/g;

const literal = (text: string) => text.replace(REGEXP_SPECIAL, '\\$&');

/** The most characters of needles one expression holds; a longer needle is searched for with indexOf. */
const PATTERN_BUDGET = 1_024;

/** Needles in groups whose texts add up to at most the budget. */
function grouped<T extends { needle: Needle }>(needles: T[]): T[][] {
  const groups: T[][] = [];
  let size = Number.POSITIVE_INFINITY;
  for (const n of needles) {
    if (size + n.needle.text.length > PATTERN_BUDGET) groups.push([]), (size = 0);
    groups.at(-1)!.push(n);
    size += n.needle.text.length;
  }
  return groups;
}

/** ASCII letters in lower case, and nothing else changed: every place in the text stays where it was. */
const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * The passes over a text that find every needle of every secret: the secrets as the views show them, in any
 * letter case (a hex token upper-cased is still the token), and their base64, whose case is part of what it
 * encodes. Short needles are searched for in expressions of a bounded size, long ones one by one.
 */
function searchesOf(secrets: { marker: string; needles: { needle: Needle }[] }[]): Search[] {
  const byText = new Map<string, { needle: Needle; marker: string }>();
  for (const { marker, needles } of secrets) for (const { needle } of needles) if (!byText.has(needle.text)) byText.set(needle.text, { needle, marker });
  return [false, true].flatMap((base64) => {
    // Longest first, so that an expression stops at a place where any of its needles starts.
    const found = [...byText.values()].filter((n) => n.needle.base64 === base64).sort((a, b) => b.needle.text.length - a.needle.text.length);
    const long = found.filter((n) => n.needle.text.length > PATTERN_BUDGET);
    const flags = base64 ? '' : 'i';
    return [
      ...long.map((n): Search => ({ long: { ...n, text: base64 ? n.needle.text : asciiLower(n.needle.text) } })),
      ...grouped(found.filter((n) => n.needle.text.length <= PATTERN_BUDGET)).map(
        (group): Search => ({
          pattern: new RegExp(group.map((n) => literal(n.needle.text)).join('|'), `g${flags}`),
          needles: group.map((n) => ({ ...n, at: new RegExp(literal(n.needle.text), `y${flags}`) })),
        }),
      ),
    ];
  });
}

/** Where a secret's needle starts in the view at `at`: the stretch of the original text it spells, joined to the last one of its secret it overlaps. */
function place(view: View, at: number, needle: Needle, marker: string, found: Found[], last: Found | undefined): Found | undefined {
  const [from, to] = needle.base64 ? widened(view.text, at, at + needle.text.length, needle) : [at, at + needle.text.length];
  const [start, end] = originalSpan(view, from, to);
  // Places come in order: a stretch that overlaps the last one of its secret extends it, so that a text
  // that repeats a secret's pattern (a secret such as "abcdabcdabcd") is held as one stretch, not millions.
  if (last?.marker === marker && start < last.end) {
    last.end = Math.max(last.end, end);
    return last;
  }
  const stretch = { start, end, marker };
  found.push(stretch);
  return stretch;
}

/** Where the needles stand in the view: every one that starts at each place, overlapping ones included. */
function occurrences(view: View, search: Search, found: Found[]): void {
  const { text } = view;
  let last: Found | undefined;
  if ('long' in search) {
    const { needle, marker, text: sought } = search.long;
    const hay = needle.base64 ? text : asciiLower(text);
    for (let at = hay.indexOf(sought); at >= 0; at = hay.indexOf(sought, at + 1)) last = place(view, at, needle, marker, found, last);
    return;
  }
  const { pattern, needles } = search;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const at = match.index;
    // The longest matched; a shorter needle that starts here too (a secret inside another) is kept as well.
    for (const { needle, marker, at: startsAt } of needles) {
      startsAt.lastIndex = at;
      if (startsAt.test(text)) last = place(view, at, needle, marker, found, last);
    }
    // The next needle may start inside this one.
    pattern.lastIndex = at + 1;
  }
}

// The edges are compared in lower case (`lower` is a needle's text in lower case), as the search compares
// the secrets in any case; a slice whose lower case is of another length (a few letters outside ASCII) is
// compared as it is.
const lowered = (text: string) => {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text;
};

/** Where a prefix of the needle, MIN_SECRET_CHARS long or more, ends the text at `end`; -1 when none does. */
function prefixBefore(text: string, end: number, lower: string): number {
  const from = Math.max(0, end - lower.length + 1);
  const tail = lowered(text.slice(from, end));
  for (let i = 0; i <= tail.length - MIN_SECRET_CHARS; i++) {
    if (tail.charCodeAt(i) === lower.charCodeAt(0) && lower.startsWith(tail.slice(i))) return from + i;
  }
  return -1;
}

/** How long a suffix of the needle, MIN_SECRET_CHARS long or more, that starts the text is; -1 when none does. */
function suffixLength(text: string, lower: string): number {
  const head = lowered(text.slice(0, lower.length - 1));
  for (let q = head.length; q >= MIN_SECRET_CHARS; q--) {
    if (head.charCodeAt(0) === lower.charCodeAt(lower.length - q) && lower.endsWith(head.slice(0, q))) return q;
  }
  return -1;
}

/**
 * The needles of a redactor's secrets, in order, as the ends of a text are compared with them, and which of them
 * hold each stretch of MIN_SECRET_CHARS of their text in lower case (its grams).
 */
interface EdgeNeedles {
  needles: { marker: string; lower: string }[];
  byGram: Map<string, number[]>;
}

function edgeNeedlesOf(secrets: { marker: string; needles: { lower: string }[] }[]): EdgeNeedles {
  const needles = secrets.flatMap(({ marker, needles }) => needles.map(({ lower }) => ({ marker, lower })));
  const byGram = new Map<string, number[]>();
  needles.forEach(({ lower }, i) => {
    for (const gram of gramsOf(lower)) {
      const holders = byGram.get(gram);
      if (holders === undefined) byGram.set(gram, [i]);
      else holders.push(i);
    }
  });
  return { needles, byGram };
}

/** Whether the i-th needle holds this stretch of a text (MIN_SECRET_CHARS long), in any letter case. */
const holds = ({ byGram }: EdgeNeedles, i: number, stretch: string) => byGram.get(lowered(stretch))?.includes(i) ?? false;

/**
 * A text may have been cut inside a secret, by whoever wrote it or on the way: a part of the secret
 * MIN_SECRET_CHARS long or more at either end counts as the secret, with an escape the cut left open.
 */
function edges(view: View, open: number, edgeNeedles: EdgeNeedles, i: number, found: Found[]): void {
  const { text } = view;
  const { lower, marker } = edgeNeedles.needles[i];
  if (text.length < MIN_SECRET_CHARS) return;
  for (const end of new Set([text.length, text.length - open])) {
    // A part of the needle MIN_SECRET_CHARS long or more that ends here ends with one of its grams: most texts stop at this look-up.
    if (end < MIN_SECRET_CHARS || !holds(edgeNeedles, i, text.slice(end - MIN_SECRET_CHARS, end))) continue;
    const p = prefixBefore(text, end, lower);
    if (p === -1) continue;
    found.push({ start: originalSpan(view, p, p + 1)[0], end: originalSpan(view, text.length - 1, text.length)[1], marker, edge: true });
    break;
  }
  const q = holds(edgeNeedles, i, text.slice(0, MIN_SECRET_CHARS)) ? suffixLength(text, lower) : -1;
  if (q !== -1) found.push({ start: originalSpan(view, 0, 1)[0], end: originalSpan(view, q - 1, q)[1], marker, edge: true });
}

/**
 * The needles `edges` may find at an end of the text, in order: those that hold the stretch of MIN_SECRET_CHARS
 * that ends the text (or ends it before an open escape) or starts it. Any other needle holds none of the
 * stretches `edges` looks up, so finds nothing there; these few are looked up once, not every needle's grams.
 */
function edgeCandidates(text: string, open: number, { byGram }: EdgeNeedles): number[] {
  if (text.length < MIN_SECRET_CHARS) return [];
  const ends = [text.length, text.length - open].filter((end) => end >= MIN_SECRET_CHARS);
  const stretches = [...ends.map((end) => text.slice(end - MIN_SECRET_CHARS, end)), text.slice(0, MIN_SECRET_CHARS)];
  const found = new Set(stretches.flatMap((stretch) => byGram.get(lowered(stretch)) ?? []));
  return [...found].sort((x, y) => x - y);
}

/** Every stretch of the text MIN_SECRET_CHARS long. */
function gramsOf(text: string): Set<string> {
  const grams = new Set<string>();
  for (let at = 0; at + MIN_SECRET_CHARS <= text.length; at++) grams.add(text.slice(at, at + MIN_SECRET_CHARS));
  return grams;
}

/**
 * What a marker says where a whole value spelt a secret other than as it is (encoded, escaped, cut, in other
 * letter cases): that value was not the secret, and must not read as the marker a value equal to it becomes,
 * in a report or when a bundle's answers are judged again.
 */
export const OTHERWISE_WRITTEN = ' (in another written form)';

/** Whether a stretch is a whole value, the whole text or a whole quoted string, that is not the secret itself. */
function wholeValueOtherThan(text: string, start: number, end: number, secret: string): boolean {
  if (start === 0 && end === text.length) return text !== secret;
  if (text[start - 1] !== '"' || text[end] !== '"') return false;
  try {
    return JSON.parse(text.slice(start - 1, end + 1)) !== secret;
  } catch {
    return true;
  }
}

/** The text with every found stretch replaced by its marker; overlapping stretches become one, named by the first. */
function replaced(text: string, found: Found[], secretOf: Map<string, string>): string {
  // Of two stretches alike, a whole secret names it rather than a part of a longer one ($FORBIDDEN_TOKEN is
  // a part of $FORBIDDEN_TOKEN_SIGNUP where placeholders stand for the tokens, as in a bundle).
  found.sort((a, b) => a.start - b.start || b.end - a.end || Number(a.edge ?? false) - Number(b.edge ?? false));
  const merged: Found[] = [];
  for (const f of found) {
    const last = merged.at(-1);
    if (last !== undefined && f.start < last.end) last.end = Math.max(last.end, f.end);
    else merged.push({ ...f });
  }
  const out: string[] = [];
  let at = 0;
  for (const { start, end, marker } of merged) {
    const otherwise = wholeValueOtherThan(text, start, end, secretOf.get(marker)!);
    out.push(text.slice(at, start), otherwise ? `${marker}${OTHERWISE_WRITTEN}` : marker);
    at = end;
  }
  out.push(text.slice(at));
  return out.join('');
}

/**
 * The redactors made, by their markers: a run's targets that share their tokens need one, a fleet of different
 * tokens those of the targets being judged and reported at once (32 recorded at a time, run/judge-run.ts).
 */
export const KEPT_REDACTORS = 64;
const redactors = new Map<string, { bare: Redactor; own: Redactor; withOthers: WeakMap<readonly SecretSource[], Redactor> }>();

/**
 * Replaces every written form of every secret with its marker: as it is in any letter case, escaped in any
 * of the ways the decoded views undo (JSON, URL, HTML, JSON pointer, nested), as a form writes it, in base64
 * or base64url at any position of a longer encoded text, any of these cut by line breaks (base64 wrapped as
 * MIME or PEM wraps it), and a part of it cut at either end of the text. What is replaced is the whole
 * stretch of the text a match came from, the line breaks inside it included; a whole value that was not the
 * secret itself says so after its marker (OTHERWISE_WRITTEN). It works on one value; a caller redacts each
 * value before writing or cutting it, never a serialised report.
 */
export function createRedactor(config: SecretSource): Redactor {
  const markers = secretMarkers(config);
  // The markers name the secrets: targets that share their tokens share one redactor, made once. The key holds
  // the secrets, in memory as they already are, and is never written.
  const made = remembered(redactors, JSON.stringify(markers), KEPT_REDACTORS, () => {
    const bare = redactorOf(markers);
    return { bare, own: memoised(bare), withOthers: new WeakMap<readonly SecretSource[], Redactor>() };
  });
  const { others } = config;
  if (others === undefined || others.length === 0) return made.own;
  let redact = made.withOthers.get(others);
  if (redact === undefined) made.withOthers.set(others, (redact = withOthers(made, markers, others)));
  return redact;
}

/** The redactor of these secrets and of the run's other targets' tokens. */
function withOthers(made: { bare: Redactor; own: Redactor }, markers: [string, string][], others: readonly SecretSource[]): Redactor {
  const union = othersRedactor(others);
  // Targets that share their tokens (one backend, one set of tokens) have no other target's to hide.
  const mine = new Set(markers.map(([secret]) => secret));
  if (union.tokens.every((token) => mine.has(token))) return made.own;
  return memoised((text) => {
    const first = made.bare(text);
    return mayHold(first, union.grams) ? union.redact(first) : first;
  });
}

/**
 * A text this long or shorter is remembered with what it became: a fleet's reports redact the same names,
 * reasons and paths for every target. A redactor is a function of its secrets and the text alone, so what it
 * remembers is what it would give again; a body is redacted anew each time, never held.
 */
export const MEMO_CHARS = 256;
/**
 * How many texts a redactor remembers: more than the short texts one target's reports share with the others' (about
 * a hundred). With KEPT_REDACTORS, this bounds what is held: a few tens of MiB were every target's tokens its own
 * and every text MEMO_CHARS long; a fleet that shares its tokens holds one redactor's texts.
 */
export const MEMO_TEXTS = 512;

function memoised(redact: Redactor): Redactor {
  const memo = new Map<string, string>();
  return (text) => (text.length > MEMO_CHARS ? redact(text) : remembered(memo, text, MEMO_TEXTS, () => redact(text)));
}

/** The redactor of these secrets, each replaced by its marker. */
function redactorOf(markers: [string, string][]): Redactor {
  const secrets = markers.map(([secret, marker]) => ({
    secret,
    marker,
    needles: needlesOf(secret).map((needle) => ({ needle, lower: lowered(needle.text) })),
  }));
  if (secrets.length === 0) return (text) => text;
  const searches = searchesOf(secrets);
  const secretOf = new Map(secrets.map(({ marker, secret }) => [marker, secret]));
  const edgeNeedles = edgeNeedlesOf(secrets);
  // No view is longer than its text (decoding shortens what it decodes), and a stretch is found only where a whole
  // needle or MIN_SECRET_CHARS of one stand in a view: a shorter text holds nothing to hide.
  const shortest = Math.min(MIN_SECRET_CHARS, ...secrets.flatMap(({ needles }) => needles.map(({ needle }) => needle.text.length)));
  return (text) => {
    if (text.length < shortest) return text;
    const found: Found[] = [];
    for (const view of decodedViews(text)) {
      for (const search of searches) occurrences(view, search, found);
      const open = openEscapeLength(view.text);
      for (const i of edgeCandidates(view.text, open, edgeNeedles)) edges(view, open, edgeNeedles, i, found);
    }
    return found.length === 0 ? text : replaced(text, found, secretOf);
  };
}

/** The marker of the n-th token of the run's other targets: a target's reports hide their tokens too. */
export const otherTargetMarker = (n: number) => `$OTHER_TARGET_TOKEN_${n}`;

const unions = new WeakMap<readonly SecretSource[], { tokens: string[]; redact: Redactor; grams: Set<string> }>();

/**
 * The redactor of every token of the run's targets, made once for the run, and the stretches of
 * MIN_SECRET_CHARS its needles hold. A target never sent another's token; a deployment that serves one
 * anyway (tenants on one backend) still has it hidden. Searching every text for hundreds of targets' tokens
 * costs tens of milliseconds, so a text is searched only where one of those stretches stands in it.
 */
function othersRedactor(others: readonly SecretSource[]): { tokens: string[]; redact: Redactor; grams: Set<string> } {
  const made = unions.get(others);
  if (made) return made;
  const tokens = [...new Set(others.flatMap((o) => secretMarkers({ ...o, others: undefined }).map(([secret]) => secret)))];
  const markers = tokens.map((secret, i): [string, string] => [secret, otherTargetMarker(i + 1)]);
  // Made when a text first needs it: a run whose targets share their tokens never does.
  let redact: Redactor | undefined;
  let grams: Set<string> | undefined;
  const union = {
    tokens,
    redact: (text: string) => (redact ??= redactorOf(markers.sort((a, b) => b[0].length - a[0].length)))(text),
    get grams() {
      grams ??= new Set(tokens.flatMap((secret) => needlesOf(secret).flatMap((needle) => [...gramsOf(lowered(needle.text))])));
      return grams;
    },
  };
  unions.set(others, union);
  return union;
}

/** Whether a stretch of MIN_SECRET_CHARS of any view of the text is one of `grams`. */
function mayHold(text: string, grams: Set<string>): boolean {
  // No view is longer than the text: a shorter one holds no stretch of MIN_SECRET_CHARS.
  if (text.length < MIN_SECRET_CHARS) return false;
  for (const view of decodedViews(text)) {
    const lower = lowered(view.text);
    for (let at = 0; at + MIN_SECRET_CHARS <= lower.length; at++) if (grams.has(lower.slice(at, at + MIN_SECRET_CHARS))) return true;
  }
  return false;
}

/** A value with every string in it, keys included, redacted: secrets are values, never searched in serialised text. */
export function redactValue<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactValue(v, redact)])) as T;
}

export function createSecrets(config: SecretSource): Secrets {
  const placeholders = new Map<string, string>([['admin', '$TOKEN']]);
  for (const f of config.forbidden) placeholders.set(f.credential, f.placeholder);
  return { redact: createRedactor(config), placeholderOf: (credential) => placeholders.get(credential) };
}
