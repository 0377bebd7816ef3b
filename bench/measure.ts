import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

// Timing and table helpers shared by the benchmarks.

const gc = (globalThis as { gc?: () => void }).gc;

export interface Timing {
  /** Median wall time of one call, in milliseconds. */
  medianMs: number;
  samples: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Below this a single call is too short for the clock; such calls are timed in batches. */
const SAMPLE_FLOOR_MS = 5;

// A full collection costs tens of milliseconds; it is only worth it before samples that make enough
// garbage for the next sample to pay for it.
const COLLECT_ABOVE_MS = 20;

export interface TimingPlan {
  warmups: number;
  minSamples: number;
  maxSamples: number;
  /** Stop taking samples once this much time went into them (after minSamples). */
  budgetMs: number;
  /** Stop after this much time even before minSamples, so one slow call cannot hold the whole bench. */
  capMs: number;
}

export const DEFAULT_PLAN: TimingPlan = { warmups: 2, minSamples: 5, maxSamples: 21, budgetMs: 800, capMs: 4000 };

/** A call this slow is warmed up once and sampled three times: its own length already smooths the noise. */
const SLOW_CALL_MS = 200;

/**
 * Median time of one call of `fn`, warmed up first. Before each sample of a long call the heap is
 * collected (when the process runs with --expose-gc), so one sample's garbage is not billed to the next.
 */
export function timeCall(fn: () => unknown, plan: TimingPlan = DEFAULT_PLAN): Timing {
  let once = 0;
  for (let i = 0; i < plan.warmups && once < SLOW_CALL_MS; i++) {
    const start = performance.now();
    fn();
    once = performance.now() - start;
  }
  if (once >= plan.capMs) return { medianMs: once, samples: 1 };
  const minSamples = once < SLOW_CALL_MS ? plan.minSamples : Math.min(plan.minSamples, 3);
  const batch = Math.max(1, Math.ceil(SAMPLE_FLOOR_MS / Math.max(once, 0.001)));
  const collect = once > COLLECT_ABOVE_MS ? gc : undefined;
  const samples: number[] = [];
  const started = performance.now();
  const enough = (elapsed: number) =>
    samples.length >= plan.maxSamples || (samples.length >= minSamples && elapsed >= plan.budgetMs) || (samples.length > 0 && elapsed >= plan.capMs);
  while (!enough(performance.now() - started)) {
    collect?.();
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    samples.push((performance.now() - start) / batch);
  }
  return { medianMs: median(samples), samples: samples.length };
}

/** Highest resident set size of this process so far, in MiB. */
export const peakRssMiB = () => process.resourceUsage().maxRSS / 1024;

export function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

/** A Markdown table, so the same text reads in a terminal and pastes into docs/performance.md. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The machine a run was made on, as docs/performance.md records it. */
export function machine(): string {
  const model = cpus()[0]?.model ?? 'unknown CPU';
  return `${availableParallelism()} CPUs (${model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
}

/** Other work on the machine skews every number; the bench prints the load beside them. */
export const loadAverage = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
