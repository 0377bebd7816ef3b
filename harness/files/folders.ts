import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

// Folders the configuration names are compared as places, not as spellings: a run clears its report
// folder, so a bundle or an evidence folder inside it, or around it, would be lost.

/** The path with every link of the part that exists resolved, so that two spellings of one place compare equal. */
export function realPath(where: string): string {
  const missing: string[] = [];
  for (let at = where; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), ...missing.reverse());
    } catch {
      if (path.dirname(at) === at) return where;
      missing.push(path.basename(at));
    }
  }
}

/** Whether a place is another, or lies below it (both real paths). */
export const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}${path.sep}`);

/** Whether two places are one, or one lies in the other. */
export function overlap(a: string, b: string): boolean {
  const [x, y] = [realPath(a), realPath(b)];
  return within(x, y) || within(y, x);
}

/**
 * Makes a folder and its missing parents, one at a time. Node's own recursive mkdir loops for ever where
 * making a folder fails with ENOENT although its parent is there (below /proc, or a link into it): here
 * that is an error, thrown at once.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !existsSync(at); at = path.dirname(at)) {
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Made in the meantime, by another run taking the same path: what was wanted is there.
      if (!((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(folder).isDirectory())) throw error;
    }
  }
}

/**
 * makeFolder, the folder itself made off the run's thread: a fleet makes one for each target, in a parent that is
 * there. Only a missing parent sends it the slow way, one folder at a time.
 */
export async function makeFolderAsync(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') makeFolder(dir);
  }
}
