import { cpSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../harness/files/config-error.ts';
import { overlap } from '../harness/files/folders.ts';
import { RUN_OUTPUT, takeReportFolder } from '../harness/config/report-folder.ts';
import { reportDirOf } from '../harness/config/sources.ts';
import { visible } from '../harness/files/visible.ts';
import { writeArtifacts, writeMatrixArtifacts } from '../reporters/artifacts.ts';
import { matrixGate } from '../reporters/gate.ts';
import { EXIT_CODE } from '../reporters/conformance-result.ts';
import { refusalReport } from '../reporters/refusal-report.ts';
import { readArguments } from './arguments.ts';
import type { CommandIO } from './command-io.ts';
import { collected, mergedExitCode, mergeShards, staleAfterMinutes, type ShardReports, type Staleness } from './merge.ts';
import { MergeError, readShard, shardFolders } from './shard-folders.ts';
import { deployedVersions } from '../harness/config/fleet-file.ts';
import { FRESHNESS_WORDS } from '../harness/config/freshness.ts';
import { historyOf, type HistorySetting } from '../harness/config/history.ts';
import { readVariables } from '../harness/config/sources.ts';
import { BUNDLE_ARCHIVE } from '../harness/evidence/bundle.ts';
import { HistoryFileError, readHistory, recordRun } from '../reporters/history-file.ts';
import { headline } from '../reporters/sections.ts';

// `admin-api-conformance merge <folder>…`: the report folders of a run's shards (or folders holding them)
// merged into the run's matrix, in CONFORMANCE_REPORT_DIR; exit by its verdict. 2: a folder that is not
// there; 3: shards that cannot be read, or are not of one run. A refused merge leaves an error report in the
// report folder, as a refused run does, so that no earlier merge's verdict stands there.

const USAGE = 'usage: admin-api-conformance merge [--stale-after 24h] [--deployed fleet.yaml] <shard report folder>…';

/** The folders given, and what makes a result stale (`--stale-after 90m|24h|7d`, `--deployed <fleet file>`). */
function mergeArgs(args: string[], cwd: string): { folders: string[]; stale: Staleness } {
  const read = readArguments(args, { 'stale-after': 'value', deployed: 'value' }, USAGE);
  if ('mistake' in read) throw new MergeError(`merge: ${read.mistake}`, 2);
  if (read.positionals.length === 0) throw new MergeError(USAGE, 2);
  const [age, deployed] = [read.value('stale-after'), read.value('deployed')];
  const minutes = age === undefined ? undefined : staleAfterMinutes(age);
  if (age !== undefined && minutes === undefined) throw new MergeError(`merge: --stale-after ${FRESHNESS_WORDS}, not "${age}"`, 2);
  return {
    folders: read.positionals.map((f) => path.resolve(cwd, f)),
    stale: {
      staleAfter: age === undefined || minutes === undefined ? undefined : { minutes, given: age },
      deployed: deployed === undefined ? undefined : deployedVersions(path.resolve(cwd, deployed)),
    },
  };
}

/** The history the merged run appends to (CONFORMANCE_HISTORY), checked and read before anything is written. */
function mergeHistory(io: CommandIO, out: string): HistorySetting | undefined {
  const setting = historyOf(readVariables(io.env, io.cwd), io.cwd, out);
  try {
    if (setting) readHistory(setting.file);
  } catch (error) {
    if (error instanceof HistoryFileError) throw new MergeError(`CONFORMANCE_HISTORY: ${error.message}`, 2);
    throw error;
  }
  return setting;
}

function merge(given: { folders: string[]; stale: Staleness }, out: string, io: CommandIO): number {
  const history = mergeHistory(io, out);
  const folders = shardFolders(given.folders);
  const inside = folders.find((f) => overlap(f, out));
  if (inside) throw new MergeError(`merge: the report folder ${out} and the shard folder ${inside} overlap; give another CONFORMANCE_REPORT_DIR`, 2);
  const shards = folders.map(readShard);
  const merged = mergeShards(shards);
  if ('refused' in merged) throw new MergeError(`no verdict: ${merged.refused}`, 3);
  const release = takeReportFolder(out, [...RUN_OUTPUT, ...shards.flatMap((s) => s.targets.map((t) => `targets/${t.folder}`))]);
  try {
    const exitCode = writeMerged(shards, folders, merged.matrix, given.stale, out, io);
    // The shards appended nothing: the run's lines go in once, for the whole run, each target's bundle as merged.
    if (history) {
      const targets = shards.flatMap((s) => s.targets.map((t) => ({ report: t.report, bundle: path.join(out, 'targets', t.folder, BUNDLE_ARCHIVE) })));
      recordRun(history, targets, shards[0].matrix.run, (line) => io.output.err(`admin-api-conformance: ${line}\n`));
    }
    return exitCode;
  } finally {
    release();
  }
}

type Merged = Extract<ReturnType<typeof mergeShards>, { matrix: unknown }>['matrix'];

/**
 * A target's folder copied into the merged run's: files and folders only. A link would leave the report folder
 * pointing wherever a shard's folder pointed, and a copy that fails is said in one line, no verdict.
 */
function copyTarget(from: string, to: string, name: string): void {
  try {
    cpSync(from, to, {
      recursive: true,
      filter: (source) => {
        if (lstatSync(source).isSymbolicLink())
          throw new MergeError(`the report folder of ${name} holds a link (${source}); a report folder holds files and folders only`, 3);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof MergeError) throw error;
    throw new MergeError(`the report folder of ${name} cannot be copied (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 3);
  }
}

/** The merged run's folder: each shard's targets copied, the matrix written, its lines printed; the exit code. */
function writeMerged(shards: ShardReports[], folders: string[], merged: Merged, stale: Staleness, out: string, io: CommandIO): number {
  for (const [i, shard] of shards.entries())
    for (const t of shard.targets) copyTarget(path.join(folders[i], 'targets', t.folder), path.join(out, 'targets', t.folder), t.report.target.name);
  const reports = shards.flatMap((s) => s.targets.map((t) => t.report));
  const gathered = collected(merged, new Date().toISOString(), stale);
  const gate = matrixGate(reports, mergedExitCode(gathered, reports, shards[0].matrix.runTargets.length));
  const matrix = { ...gathered, ...(gate && { gate }) };
  const files = writeMatrixArtifacts(matrix, reports, out, io.env.GITHUB_STEP_SUMMARY || undefined);
  const passing = matrix.targets.filter((t) => t.verdict === 'pass').length;
  io.output.out(`Conformance matrix, merged: ${headline(matrix)}, ${passing} of ${matrix.targets.length} targets pass\n`);
  for (const error of matrix.errors) io.output.out(`  ${visible(error)}\n`);
  io.output.out(`${files.map((f) => `  report: ${f}`).join('\n')}\n`);
  if (matrix.gate) io.output.out(`  ${matrix.gate.text}\n`);
  return matrix.gate?.exitCode ?? EXIT_CODE[matrix.verdict];
}

/**
 * A refused merge takes the report folder and leaves its error report there, as a refused run does: the page,
 * badge and conformance.json of an earlier merge no longer stand. Not when the folder is one of the shards' or lies
 * in one (the refusal may be that overlap), and not when it cannot be taken: the line says enough.
 */
function leaveRefusal(out: string | undefined, reason: string, given: string[]): void {
  if (out === undefined || given.some((g) => overlap(g, out))) return;
  let release: (() => void) | undefined;
  try {
    release = takeReportFolder(out);
    writeArtifacts(refusalReport(`the merge was refused: ${reason}`), out);
  } catch {
    // another run holds the folder, or it cannot be written
  } finally {
    release?.();
  }
}

/** Merges the shards' report folders into the run's: its exit code, its lines printed. */
export function mergeCommand(args: string[], io: CommandIO): number {
  // Whatever the command line says, what it names as folders is never taken as the report folder.
  const named = args.filter((a) => !a.startsWith('-')).map((a) => path.resolve(io.cwd, a));
  try {
    const given = mergeArgs(args, io.cwd);
    return merge(given, reportDirOf(io.env, io.cwd) ?? path.resolve(io.cwd, 'conformance-report'), io);
  } catch (error) {
    if (!(error instanceof MergeError) && !(error instanceof ConfigError)) throw error;
    io.output.err(`admin-api-conformance: ${visible(error.message)}\n`);
    leaveRefusal(reportDirOf(io.env, io.cwd), error.message, named);
    return error instanceof MergeError ? error.exitCode : 2;
  }
}
