import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

// A file written whole or not at all: beside it first, then renamed over it. On a disk that fills up, write(2)
// may write part of what it was given and say so; Node's writeFileSync goes on until all is written or the disk
// refuses, where a single writeSync would take the part for the whole and a file cut at 4,096 bytes would replace
// the one that stood. A killed run leaves the file as it was (the rename is the one step that replaces it). The
// file is not flushed to the disk before the rename (fsync): that would guard only against the machine itself
// failing, where a report whose file came out empty reads as no report at all, never as a verdict; it cost a
// fleet of 10,000 targets, at nine files each, most of its time.

/**
 * The name a file is written under before it is renamed: this process's own (its id and a random word, drawn once)
 * and numbered, so that no two writers, here or in another process, ever share one; not drawn afresh for each of a
 * fleet's hundred thousand files.
 */
const BESIDE = `${process.pid}-${randomBytes(4).toString('hex')}`;
let written = 0;
const besideOf = (file: string) => `${file}.${BESIDE}-${(written += 1)}.partial`;

/** Writes `content` to `file` whole, or throws and leaves `file` as it was. */
export function writeWhole(file: string, content: string): void {
  const beside = besideOf(file);
  try {
    const fd = openSync(beside, 'wx', 0o644);
    try {
      writeFileSync(fd, content);
    } finally {
      closeSync(fd);
    }
    renameSync(beside, file);
  } catch (error) {
    rmSync(beside, { force: true });
    throw error;
  }
}

/**
 * Writes `content` to `file` whole as writeWhole does, on Node's own threads: the calling thread goes on (a fleet's
 * run judges other targets meanwhile). fs.promises.writeFile, like writeFileSync, writes until all is written.
 */
export async function writeWholeAsync(file: string, content: string): Promise<void> {
  const beside = besideOf(file);
  try {
    await writeFile(beside, content, { flag: 'wx', mode: 0o644 });
    await rename(beside, file);
  } catch (error) {
    await rm(beside, { force: true });
    throw error;
  }
}

/**
 * Writes `file` whole from a head, the bytes of the file `middle` (written piece by piece beforehand: a fleet's
 * testsuites, say, which never lie whole in memory) and a tail, beside it first, then renamed over it. `middle` is
 * removed, whatever the outcome.
 */
export async function writeWholeAround(file: string, head: string, middle: string, tail: string): Promise<void> {
  const beside = besideOf(file);
  try {
    const out = createWriteStream(beside, { flags: 'wx', mode: 0o644 });
    out.write(head);
    await pipeline(createReadStream(middle), out, { end: false });
    await new Promise<void>((resolve, reject) => out.end(tail, (error?: Error | null) => (error ? reject(error) : resolve())));
    renameSync(beside, file);
  } finally {
    rmSync(middle, { force: true });
    rmSync(beside, { force: true });
  }
}
