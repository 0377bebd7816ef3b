import { readdirSync, readFileSync } from 'node:fs';

// The memory of a process tree, as the issue counts it: the resident set of a process and of all its descendants,
// summed, sampled from /proc while it runs; the peak of the sums is the figure. The tree's CPU time is read on the way:
// what each process had spent when last seen, summed (a process's last 200 ms are missed).

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

/** The CPU seconds a process has spent (user and system), from /proc; 0 once it is gone. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command's name, which may hold spaces: utime and stime are the 12th and 13th fields, in ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The process ids of `root` and its descendants now. */
function treeOf(root: number): Set<number> {
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
  return tree;
}

/** The resident bytes of `root` and its descendants now. */
export const treeBytes = (root: number): number => [...treeOf(root)].reduce((sum, pid) => sum + rssOf(pid), 0);

/**
 * Samples the tree of `root` every `everyMs` until stopped: the peak of its memory so far; `cpuSeconds()`, the CPU its
 * processes had spent when last sampled.
 */
export function samplePeak(root: number, everyMs = 200): { stop: () => number; cpuSeconds: () => number } {
  let peak = 0;
  const spent = new Map<number, number>();
  const timer = setInterval(() => {
    const tree = treeOf(root);
    peak = Math.max(
      peak,
      [...tree].reduce((sum, pid) => sum + rssOf(pid), 0),
    );
    for (const pid of tree) spent.set(pid, Math.max(spent.get(pid) ?? 0, cpuOf(pid)));
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
    cpuSeconds: () => [...spent.values()].reduce((sum, s) => sum + s, 0),
  };
}
