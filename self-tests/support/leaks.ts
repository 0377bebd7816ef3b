import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { formsIn } from './written-forms.ts';

// Where a secret turned up: every file a run wrote, opened up (traces, evidence bundles), searched for every
// written form of each canary and for its random core alone.

/** A secret and the random core that only it contains: finding the core anywhere, in any encoding, is a leak. */
export interface Canary {
  name: string;
  value: string;
  core: string;
}

export function canary(name: string, prefix: string): Canary {
  const core = randomBytes(12).toString('hex');
  return { name, value: `${prefix}${core}`, core };
}

/** The entries of a zip file (a Playwright trace), stored or deflated. */
function zipEntries(zip: Buffer): { name: string; data: Buffer }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries: { name: string; data: Buffer }[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const [method, size, nameLength] = [zip.readUInt16LE(at + 10), zip.readUInt32LE(at + 20), zip.readUInt16LE(at + 28)];
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    entries.push({ name: zip.toString('utf8', at + 46, at + 46 + nameLength), data: method === 8 ? inflateRawSync(raw) : raw });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** Every file under `dir`, zip files opened up and gzip files (an evidence bundle) unpacked, as (where, content) pairs. */
export function contentsUnder(dir: string): [string, Buffer][] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .flatMap((entry): [string, Buffer][] => {
      const file = path.join(entry.parentPath, entry.name);
      const data = readFileSync(file);
      if (file.endsWith('.gz')) return [[`${file}!`, gunzipSync(data)]];
      return file.endsWith('.zip') ? zipEntries(data).map(({ name, data: inner }): [string, Buffer] => [`${file}!${name}`, inner]) : [[file, data]];
    });
}

/** Every written form of every canary, and its random core alone, wherever it turns up. */
export function leaks(places: [string, Buffer | string][], canaries: Canary[]): string[] {
  const secrets = canaries.map((c) => ({ name: c.name, value: c.value }));
  return places.flatMap(([where, content]) => [
    ...formsIn(content, secrets).map((found) => `${found} in ${where}`),
    ...canaries.filter((c) => content.includes(c.core)).map((c) => `${c.name} (its random part) in ${where}`),
  ]);
}
