import { realpathSync } from 'node:fs';
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
