import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPORTS, type BundleFiles } from '../../harness/evidence/bundle.ts';
import type { ShardOfRun } from '../../harness/judging/verdicts.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import { buildMatrixReport } from '../../reporters/matrix-result.ts';
import { bundleArchive, referenceBundle, type BundleOptions } from './in-process-bundle.ts';

// A shard's report folder made in process, as a sharded run writes it: each target's folder below targets/ (its
// reports and its evidence.tar.gz, whose run facts name the shard's place in its run) and the shard's matrix. A
// merge is judged on such folders, and on copies changed as someone who knows the format would change them.

/** Writes a target's folder below `shardDir`/targets/ from its bundle: the reports as the bundle holds them, and the bundle beside. */
export function writeTarget(shardDir: string, name: string, files: BundleFiles): ConformanceReport {
  const dir = path.join(shardDir, 'targets', name);
  mkdirSync(dir, { recursive: true });
  for (const [file, bytes] of files) if (file.startsWith(`${REPORTS}/`)) writeFileSync(path.join(dir, file.slice(REPORTS.length + 1)), bytes);
  cpSync(bundleArchive(files), path.join(dir, 'evidence.tar.gz'));
  return JSON.parse(files.get(`${REPORTS}/conformance.json`)!.toString('utf8'));
}

/** Writes the shard's matrix over these reports, as a sharded run writes it. */
export function writeMatrix(shardDir: string, place: ShardOfRun, reports: ConformanceReport[]): void {
  const [current, total] = place.shard.split('/').map(Number);
  const matrix = buildMatrixReport(
    reports.map((report) => ({ report, path: `targets/${report.target.name}/index.html` })),
    1,
    { current, total, run: place.run, runTargets: place.runTargets },
  );
  writeFileSync(path.join(shardDir, 'conformance.json'), `${JSON.stringify(matrix, null, 2)}\n`);
}

/** A shard's report folder at `shardDir`: its share of the run's targets (every n-th from the i-th), each judged in process. */
export function shardFolder(shardDir: string, place: ShardOfRun, options: Record<string, Omit<BundleOptions, 'name' | 'shard'>> = {}): string {
  const [current, total] = place.shard.split('/').map(Number);
  const share = place.runTargets.filter((_, i) => i % total === current - 1);
  const reports = share.map((name) => writeTarget(shardDir, name, referenceBundle({ ...options[name], name, shard: place })));
  writeMatrix(shardDir, place, reports);
  return shardDir;
}
