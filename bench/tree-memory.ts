import { readdirSync, readFileSync } from 'node:fs';

// The memory of a process tree, as the issue counts it: the resident set of a process and of all its descendants,
// summed, sampled from /proc while it runs; the peak of the sums is the figure.

/** Each process's parent, from /proc. */
function parents(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      byPid.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  return byPid;
}

const rssOf = (pid: number): number => {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

/** The resident bytes of `root` and its descendants now. */
export function treeBytes(root: number): number {
  const byPid = parents();
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of byPid)
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
  }
  return [...tree].reduce((sum, pid) => sum + rssOf(pid), 0);
}

/** Samples the tree of `root` every `everyMs` until stopped; the peak so far. */
export function samplePeak(root: number, everyMs = 200): { stop: () => number } {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeBytes(root));
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}
