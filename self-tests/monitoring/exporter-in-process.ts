import path from 'node:path';
import { serve } from '../../run/commands.ts';

// The exporter started in this process on a free loopback port, as the command starts it; stopped as a signal stops it.

export interface Exporter {
  url: string;
  stop: () => void;
  ended: Promise<number>;
  lines: string[];
}

export async function startExporter(env: Record<string, string>, args: string[]): Promise<Exporter> {
  const stop = new AbortController();
  const lines: string[] = [];
  const output = { out: (t: string) => void lines.push(t), err: (t: string) => void lines.push(t) };
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const ended = serve(['--listen', '127.0.0.1:0', ...args], { env, cwd: path.dirname(env.CONFORMANCE_TARGETS), output, signal: stop.signal, listening });
  return {
    url: await Promise.race([url, ended.then((code) => Promise.reject(new Error(`serve ended ${code}: ${lines.join('')}`)))]),
    stop: () => stop.abort(),
    ended,
    lines,
  };
}

/** Waits until the exporter at `url` has a run under way, as its own metrics say. */
export async function runUnderWay(url: string): Promise<void> {
  for (;;) {
    const own = await (await fetch(`${url}/metrics`)).text();
    if (/^conformance_exporter_runs_in_flight [1-9]/m.test(own)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
