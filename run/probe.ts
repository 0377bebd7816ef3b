import { readdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { TargetConfig } from '../harness/config/config.ts';
import { slug } from '../harness/config/targets.ts';
import type { ConformanceReport } from '../reporters/conformance-result.ts';
import { judgeAndReport } from './engine.ts';
import { SILENT } from './output.ts';
import type { Run } from './prepare.ts';
import { startRun } from './report-folder.ts';

// One probe of the exporter (run/exporter.ts): one target of the fleet judged now by the engine's judgeAndReport, as runConformance judges (its
// report folder taken, its requests sent and judged, its reports, bundle and metrics.prom written), in a folder of
// its own below `tenants/<target>/` of the run's report folder. The latest few are kept, and `latest` names the newest.

/** The folder holding a target's probes: `tenants/<its folder name>` below the run's report folder. */
export const tenantFolder = (run: Run, config: TargetConfig) => path.join(run.reportDir, 'tenants', slug(config.name));

let sequence = 0;

/** A probe's folder name: when it started, sortable, and a sequence number that keeps two of one second apart. */
const probeName = (at: Date) =>
  `${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${String(++sequence % 1e6).padStart(6, '0')}`;

/** The run of one target: the fleet's settings, that target alone, its reports in `dir`. No baseline: a probe is watched, not ratcheted. */
function probeRun(base: Run, config: TargetConfig, dir: string): Run {
  const evidenceDir = config.evidenceDir && path.join(config.evidenceDir, slug(config.name), path.basename(dir));
  return { multi: false, targets: [{ ...config, reportDir: dir, evidenceDir }], reportDir: dir, gate: base.gate, metrics: base.metrics };
}

/**
 * Judges `config` now by the engine (judgeAndReport, as runConformance does) and writes its reports: the report, and
 * its folder. `signal` stops it (the report then says interrupted). A run that wrote no report throws, saying why.
 */
export async function probeTarget(base: Run, config: TargetConfig, signal?: AbortSignal): Promise<{ report: ConformanceReport; dir: string }> {
  const started = Date.now();
  const tenant = tenantFolder(base, config);
  const dir = path.join(tenant, probeName(new Date(started)));
  const run = probeRun(base, config, dir);
  const release = startRun(run, SILENT);
  try {
    const result = await judgeAndReport(run, { signal, started, output: SILENT });
    if (result.targets[0] === undefined) throw new Error(result.reason ?? 'no report was written');
    return { report: result.targets[0].report, dir };
  } finally {
    release();
  }
}

/** Keeps the `keep` newest probes of a tenant, and points `latest` at the newest (renamed over, never missing). */
export function keepLatest(tenant: string, keep: number): void {
  const probes = readdirSync(tenant, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^\d{8}T\d{6}Z-\d{6}$/.test(e.name))
    .map((e) => e.name)
    .sort();
  for (const old of probes.slice(0, Math.max(0, probes.length - keep))) rmSync(path.join(tenant, old), { recursive: true, force: true });
  const newest = probes.at(-1);
  if (newest === undefined) return;
  const beside = path.join(tenant, `.latest-${process.pid}-${sequence}`);
  rmSync(beside, { force: true });
  symlinkSync(newest, beside);
  renameSync(beside, path.join(tenant, 'latest'));
}
