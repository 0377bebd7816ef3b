import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../harness/files/config-error.ts';
import { overlap } from '../harness/files/folders.ts';
import { RUN_OUTPUT, takeReportFolder } from '../harness/config/report-folder.ts';
import { reportDirOf } from '../harness/config/sources.ts';
import { visible } from '../harness/files/visible.ts';
import { writeMatrixArtifacts } from '../reporters/artifacts.ts';
import { matrixGate } from '../reporters/gate.ts';
import { EXIT_CODE } from '../reporters/conformance-result.ts';
import { readArguments } from './arguments.ts';
import type { CommandIO } from './command-io.ts';
import { collected, mergedExitCode, mergeShards, staleAfterMinutes, type ShardMatrix, type ShardReports, type Staleness } from './merge.ts';
import { check, schemaFile } from '../harness/files/checked.ts';
import { deployedVersions } from '../harness/config/fleet-file.ts';
import { BundleError } from '../harness/evidence/bundle-error.ts';
import { readBundle } from '../harness/evidence/bundle-reader.ts';
import { BUNDLE_ARCHIVE, digestProblems, manifestOf, REPORTS, sha256 } from '../harness/evidence/bundle.ts';
import { checkedReport, readJsonFile, ReportFileError } from '../readers/report-file.ts';
import { VERDICT_LABEL } from '../reporters/sections.ts';

// `admin-api-conformance merge <folder>…`: the report folders of a run's shards (or folders holding them)
// merged into the run's matrix, in CONFORMANCE_REPORT_DIR; exit by its verdict. 2: a folder that is not
// there; 3: shards that cannot be read, or are not of one run.

/** A line that ends the merge: what is wrong, and its exit code. */
class MergeError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** A shard's file that cannot be read: no verdict of the run. */
function readJson(file: string): unknown {
  try {
    return readJsonFile(file);
  } catch (error) {
    if (error instanceof ReportFileError) throw new MergeError(error.message, 3);
    throw error;
  }
}

/** A shard's matrix, checked where it is read: the fields a merge relies on. */
function matrixOf(file: string): ShardMatrix {
  const read = check<ShardMatrix>(schemaFile('shard-matrix.schema.json'), readJson(file));
  if (!read.ok) throw new MergeError(`${file} is not a shard's report: run each shard with CONFORMANCE_SHARD=i/n (or -- --shard=i/n)`, 3);
  return read.value;
}

/**
 * A target's report is collected only as its evidence bundle holds it: the bundle's own digests hold, and its
 * copy of the report is the report's every byte. A report changed after its run, or without its bundle, is
 * no one's verdict.
 */
function matchesItsBundle(folder: string, name: string): void {
  const bundle = path.join(folder, BUNDLE_ARCHIVE);
  if (!existsSync(bundle))
    throw new MergeError(`the report of ${name} has no evidence bundle beside it (${bundle}): a report that cannot be checked is not merged`, 3);
  try {
    const files = readBundle(bundle);
    const [problem] = digestProblems(files, manifestOf(files));
    if (problem !== undefined) throw new MergeError(`the evidence bundle of ${name} does not hold: ${problem}`, 3);
    const copy = files.get(`${REPORTS}/conformance.json`);
    if (copy === undefined || sha256(copy) !== sha256(readFileSync(path.join(folder, 'conformance.json'))))
      throw new MergeError(`the report of ${name} is not the one its evidence bundle holds: it was changed after its run`, 3);
  } catch (error) {
    if (error instanceof BundleError) throw new MergeError(`the evidence bundle of ${name} cannot be read: ${error.message}`, 3);
    throw error;
  }
}

/** One shard's folder: its matrix and each of its targets' reports, each checked against the report's schema. */
function readShard(dir: string): ShardReports {
  const matrix = matrixOf(path.join(dir, 'conformance.json'));
  const targets = matrix.targets.map((t) => {
    const folder = path.dirname(path.resolve(dir, t.report));
    if (!folder.startsWith(path.join(dir, 'targets') + path.sep)) throw new MergeError(`${dir}: the report of ${t.name} lies outside its targets/ folder`, 3);
    const file = path.join(folder, 'conformance.json');
    const value = readJson(file);
    try {
      matchesItsBundle(folder, t.name);
      return { report: checkedReport(value, file), folder: path.basename(folder) };
    } catch (error) {
      if (error instanceof ReportFileError) throw new MergeError(error.message, 3);
      throw error;
    }
  });
  return { matrix, targets };
}

/** The shards' folders: each folder given, or the folders it holds when it is no report folder itself. */
function shardFolders(given: string[]): string[] {
  return given.flatMap((g) => {
    const dir = path.resolve(g);
    if (!existsSync(dir)) throw new MergeError(`merge: there is no folder ${dir}`, 2);
    if (!statSync(dir).isDirectory()) throw new MergeError(`merge: ${dir} is a file; give the shards' report folders`, 2);
    if (existsSync(path.join(dir, 'conformance.json'))) return [dir];
    const inside = readdirSync(dir)
      .map((name) => path.join(dir, name))
      .filter((d) => statSync(d).isDirectory() && existsSync(path.join(d, 'conformance.json')));
    if (inside.length === 0) throw new MergeError(`merge: ${dir} holds no shard's report folder (conformance.json)`, 2);
    return inside;
  });
}

const USAGE = 'usage: admin-api-conformance merge [--stale-after 24h] [--deployed fleet.yaml] <shard report folder>…';

/** The folders given, and what makes a result stale (`--stale-after 90m|24h|7d`, `--deployed <fleet file>`). */
function mergeArgs(args: string[], cwd: string): { folders: string[]; stale: Staleness } {
  const read = readArguments(args, { 'stale-after': 'value', deployed: 'value' }, USAGE);
  if ('mistake' in read) throw new MergeError(`merge: ${read.mistake}`, 2);
  if (read.positionals.length === 0) throw new MergeError(USAGE, 2);
  const [age, deployed] = [read.value('stale-after'), read.value('deployed')];
  const minutes = age === undefined ? undefined : staleAfterMinutes(age);
  if (age !== undefined && minutes === undefined) throw new MergeError(`merge: --stale-after takes minutes, hours or days, as 90m, 24h or 7d, not "${age}"`, 2);
  return {
    folders: read.positionals,
    stale: {
      staleAfter: age === undefined || minutes === undefined ? undefined : { minutes, given: age },
      deployed: deployed === undefined ? undefined : deployedVersions(path.resolve(cwd, deployed)),
    },
  };
}

function merge(args: string[], io: CommandIO): number {
  const given = mergeArgs(args, io.cwd);
  const folders = shardFolders(given.folders.map((f) => path.resolve(io.cwd, f)));
  const out = reportDirOf(io.env, io.cwd) ?? path.resolve(io.cwd, 'conformance-report');
  const inside = folders.find((f) => overlap(f, out));
  if (inside) throw new MergeError(`merge: the report folder ${out} and the shard folder ${inside} overlap; give another CONFORMANCE_REPORT_DIR`, 2);
  const shards = folders.map(readShard);
  const merged = mergeShards(shards);
  if ('refused' in merged) throw new MergeError(`no verdict: ${merged.refused}`, 3);
  const release = takeReportFolder(out, [...RUN_OUTPUT, ...shards.flatMap((s) => s.targets.map((t) => `targets/${t.folder}`))]);
  try {
    return writeMerged(shards, folders, merged.matrix, given.stale, out, io);
  } finally {
    release();
  }
}

type Merged = Extract<ReturnType<typeof mergeShards>, { matrix: unknown }>['matrix'];

/** The merged run's folder: each shard's targets copied, the matrix written, its lines printed; the exit code. */
function writeMerged(shards: ShardReports[], folders: string[], merged: Merged, stale: Staleness, out: string, io: CommandIO): number {
  for (const [i, shard] of shards.entries())
    for (const t of shard.targets) cpSync(path.join(folders[i], 'targets', t.folder), path.join(out, 'targets', t.folder), { recursive: true });
  const reports = shards.flatMap((s) => s.targets.map((t) => t.report));
  const gathered = collected(merged, new Date().toISOString(), stale);
  const gate = matrixGate(reports, mergedExitCode(gathered, reports, shards[0].matrix.runTargets.length));
  const matrix = { ...gathered, ...(gate && { gate }) };
  const files = writeMatrixArtifacts(matrix, reports, out, io.env.GITHUB_STEP_SUMMARY || undefined);
  const passing = matrix.targets.filter((t) => t.verdict === 'pass').length;
  io.output.out(`Conformance matrix, merged: ${VERDICT_LABEL[matrix.verdict]}, ${passing} of ${matrix.targets.length} targets pass\n`);
  for (const error of matrix.errors) io.output.out(`  ${visible(error)}\n`);
  io.output.out(`${files.map((f) => `  report: ${f}`).join('\n')}\n`);
  if (matrix.gate) io.output.out(`  ${matrix.gate.text}\n`);
  return matrix.gate?.exitCode ?? EXIT_CODE[matrix.verdict];
}

/** Merges the shards' report folders into the run's: its exit code, its lines printed. */
export function mergeCommand(args: string[], io: CommandIO): number {
  try {
    return merge(args, io);
  } catch (error) {
    if (!(error instanceof MergeError) && !(error instanceof ConfigError)) throw error;
    io.output.err(`admin-api-conformance: ${visible(error.message)}\n`);
    return error instanceof MergeError ? error.exitCode : 2;
  }
}
