// What the redactor searches for, for one secret.

import { decodedViews } from './decoded-view.ts';
import { MIN_SECRET_CHARS } from './secret-rule.ts';

/**
 * One text to search for. A base64 needle is the part of an encoding that only the secret's bytes decide;
 * `before` and `after` say how many characters beside it also carry some of its bits (0 or 1 each).
 */
export interface Needle {
  text: string;
  base64: boolean;
  before: number;
  after: number;
}

/** As a form (application/x-www-form-urlencoded, URLSearchParams) writes a value: a space as "+", the rest percent-encoded. */
const formEncoded = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);

/** Texts whose base64 is searched too: the secret, and the spellings a target would encode, as a URL, a form or a JSON string. */
function spellings(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const percent = encodeURIComponent(secret);
  return [secret, percent, percent.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()), formEncoded(secret), json, json.replace(/\//g, '\\/')];
}

/**
 * The secret as the decoded views show it, besides as it is: with a space as "+" (a form's spelling, whose
 * other escapes the views decode), and, for a secret that holds what a reader decodes ("~1", "%41"), as
 * each layer decodes it. A target that escapes another of its characters leaves those in the text, and the
 * view that decodes that escape decodes them too. Its bytes in hex as well, which the search finds in
 * either case, as it finds every one of these.
 */
function plainNeedles(secret: string): Needle[] {
  const hex = Buffer.from(secret, 'utf8').toString('hex');
  const texts = [secret, secret.replace(/ /g, '+'), hex, ...decodedViews(secret).map((view) => view.text)];
  return texts.map((text) => ({ text, base64: false, before: 0, after: 0 }));
}

/**
 * The base64 of `text` at each of the three positions it can take in a longer encoded text (its first byte
 * the first, second or third of a group of three), in both alphabets, cut to the characters no neighbour
 * changes, so that it is found with or without padding and inside any longer base64.
 */
function base64Needles(text: string): Needle[] {
  const bytes = Buffer.from(text, 'utf8');
  const bits = 8 * bytes.length;
  return [0, 1, 2].flatMap((align) => {
    const encoded = Buffer.concat([Buffer.alloc(align), bytes]).toString('base64');
    const [startBit, endBit] = [8 * align, 8 * align + bits];
    const first = Math.ceil(startBit / 6);
    const last = Math.floor(endBit / 6);
    const core = encoded.slice(first, last);
    const needle = { base64: true, before: startBit % 6 === 0 ? 0 : 1, after: endBit % 6 === 0 ? 0 : 1 };
    return [
      { ...needle, text: core },
      { ...needle, text: core.replace(/\+/g, '-').replace(/\//g, '_') },
    ];
  });
}

/** Everything to search for one secret: itself as the views show it (they decode every escaped spelling), and its base64 encodings. */
export function needlesOf(secret: string): Needle[] {
  const needles = plainNeedles(secret);
  for (const spelling of new Set(spellings(secret))) needles.push(...base64Needles(spelling));
  const seen = new Set<string>();
  // A short needle would turn up in ordinary text; configuration refuses secrets that short, but a
  // fragment of base64 or a decoded spelling may be shorter. The secret itself is always searched.
  return needles.filter((n) => (n.text === secret || n.text.length >= MIN_SECRET_CHARS) && !seen.has(n.text) && seen.add(n.text));
}
