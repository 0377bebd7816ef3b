// Issue 40's exporter figures: a probe of a target whose result is cached (younger than --min-interval), and a fresh
// probe set against one run of the same target by the engine, each in this process against a reference server on
// loopback, the exporter listening as `admin-api-conformance serve` does.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REFERENCE_FIXTURES } from '../reference-server/fixtures.ts';
import { startReferenceServer } from '../reference-server/server.ts';
import { serve } from '../run/commands.ts';
import { runConformance } from '../run/engine.ts';
import type { Figure } from './figures.ts';
import { formatMs, median } from './measure.ts';
import { temporaryFolder } from './run.ts';

/** Issue 40: a probe answered from the cache, at most. */
export const CACHED_PROBE_MS = 20;
/** Issue 40: a fresh probe, at most one run of its target and this. */
export const FRESH_PROBE_MARGIN_MS = 50;

const ROUNDS = 7;
const CACHED_PROBES = 50;

const TOKENS = {
  CONFORMANCE_TOKEN_REF_ADMIN: REFERENCE_FIXTURES.adminToken,
  CONFORMANCE_TOKEN_REF_FORBIDDEN: REFERENCE_FIXTURES.forbiddenToken,
  CONFORMANCE_TOKEN_REF_SIGNUP: REFERENCE_FIXTURES.signupTokens.join(','),
};

/** How long one probe of `target` takes, its answer read whole; a probe that is not a 200 stops the bench. */
async function probe(url: string, target: string): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${url}/probe?target=${target}`);
  await answer.text();
  if (answer.status !== 200) throw new Error(`a probe of ${target} answered ${answer.status}`);
  return performance.now() - started;
}

export async function exporterFigures(): Promise<Figure[]> {
  const server = await startReferenceServer(0);
  const folder = temporaryFolder('bench-exporter-');
  const fleet = path.join(folder.path, 'fleet.yaml');
  const names = Array.from({ length: ROUNDS + 1 }, (_, i) => `tenant-${i}`);
  writeFileSync(
    fleet,
    [
      'defaults: { adminTokenFrom: CONFORMANCE_TOKEN_REF_ADMIN, forbiddenTokenFrom: CONFORMANCE_TOKEN_REF_FORBIDDEN, signupTokensFrom: CONFORMANCE_TOKEN_REF_SIGNUP }',
      'targets:',
      ...names.map((name) => `  - { name: ${name}, baseUrl: "${server.url}" }`),
      '',
    ].join('\n'),
  );
  const env = { ...TOKENS, CONFORMANCE_TARGETS: fleet, CONFORMANCE_REPORT_DIR: path.join(folder.path, 'exporter') };
  const stop = new AbortController();
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const silent = { out: () => undefined, err: () => undefined };
  const ended = serve(['--listen', '127.0.0.1:0', '--min-interval', '1h'], { env, cwd: folder.path, output: silent, signal: stop.signal, listening });
  try {
    const at = await Promise.race([url, ended.then((code) => Promise.reject(new Error(`serve ended with ${code}`)))]);
    // The first probe loads and compiles what the others reuse: left out, as the first run is.
    await probe(at, names[0]);
    const fresh: number[] = [];
    const runs: number[] = [];
    for (const [i, name] of names.slice(1).entries()) {
      fresh.push(await probe(at, name));
      const started = performance.now();
      await runConformance({
        env: { ...TOKENS, CONFORMANCE_BASE_URL: server.url, CONFORMANCE_ADMIN_TOKEN: TOKENS.CONFORMANCE_TOKEN_REF_ADMIN },
        reportDir: path.join(folder.path, `run-${i}`),
      });
      runs.push(performance.now() - started);
    }
    const cached: number[] = [];
    for (let i = 0; i < CACHED_PROBES; i++) cached.push(await probe(at, names[1 + (i % ROUNDS)]));
    const [freshMs, runMs, cachedMs] = [median(fresh), median(runs), median(cached)];
    return [
      {
        name: 'a probe answered from the cache (median)',
        measured: `${formatMs(cachedMs)} ms`,
        goal: `≤ ${CACHED_PROBE_MS} ms`,
        met: cachedMs <= CACHED_PROBE_MS,
      },
      {
        name: 'a fresh probe (median), against one run of its target by the engine',
        measured: `${formatMs(freshMs)} ms against ${formatMs(runMs)} ms`,
        goal: `≤ the run + ${FRESH_PROBE_MARGIN_MS} ms`,
        met: freshMs <= runMs + FRESH_PROBE_MARGIN_MS,
      },
    ];
  } finally {
    stop.abort();
    await ended;
    await new Promise((resolve) => server.server.close(resolve));
    folder.remove();
  }
}

if (require.main === module)
  exporterFigures().then(
    (figures) => {
      for (const f of figures) process.stdout.write(`${f.name}: ${f.measured} (goal ${f.goal}: ${f.met ? 'met' : 'NOT MET'})\n`);
    },
    (error: Error) => {
      process.stderr.write(`bench: ${error.message}\n`);
      process.exitCode = 1;
    },
  );
