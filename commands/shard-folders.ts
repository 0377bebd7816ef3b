import { lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { check, schemaFile } from '../harness/files/checked.ts';
import type { ShardOfRun } from '../harness/judging/verdicts.ts';
import { BundleBesideError, bundleBeside } from '../readers/bundled-report.ts';
import { checkedReport, jsonOf, readJsonFile, readReportBytes, REPORT_TARGETS, ReportFileError } from '../readers/report-file.ts';
import type { ShardMatrix, ShardReports } from './merge.ts';

// The shards' report folders as a merge reads them, each as hostile as a target's body: every entry of a folder
// of shards read or named in one line, each shard's matrix and each target's report within bounds, each report
// taken only as its evidence bundle holds it, that bundle judged again as verify judges it, and each bundle held to
// the run, the shard and the targets its shard's matrix names.

/** A line that ends the merge: what is wrong, and its exit code (2: what was given; 3: no verdict). */
export class MergeError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The most entries of a folder of shards that are looked at: a run has one report folder a shard. */
export const FOLDER_ENTRIES = 10_000;

/** What a path is, links followed: a folder, a file, something else, nothing, or why it cannot be read. */
function kindOf(at: string): 'folder' | 'file' | 'other' | 'none' | { unreadable: string } {
  try {
    const stat = statSync(at);
    return stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other';
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') return lstatSync(at, { throwIfNoEntry: false }) ? { unreadable: 'a link to nothing' } : 'none';
    if (code === 'ELOOP') return { unreadable: 'a link loop' };
    return { unreadable: code ?? 'error' };
  }
}

/** Whether a folder is a shard's report folder (it holds a conformance.json); a conformance.json that cannot be read is no verdict. */
function isReportFolder(dir: string): boolean {
  const file = path.join(dir, 'conformance.json');
  const kind = kindOf(file);
  if (typeof kind === 'object') throw new MergeError(`merge: ${file} cannot be read (${kind.unreadable})`, 3);
  return kind !== 'none';
}

/** The report folders a folder holds, each entry read: one that cannot be read may be a shard, so it ends the merge. */
function foldersIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    throw new MergeError(`merge: ${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 2);
  }
  if (names.length > FOLDER_ENTRIES)
    throw new MergeError(`merge: ${dir} holds ${names.length} entries, more than the ${FOLDER_ENTRIES} a folder of shards is read for`, 2);
  return names
    .sort()
    .map((name) => path.join(dir, name))
    .filter((entry) => {
      const kind = kindOf(entry);
      if (typeof kind === 'object') throw new MergeError(`merge: ${entry} cannot be read (${kind.unreadable}): a shard's report folder may lie behind it`, 3);
      return kind === 'folder' && isReportFolder(entry);
    });
}

/** The shards' folders: each folder given, or the folders it holds when it is no report folder itself. */
export function shardFolders(given: string[]): string[] {
  return given.flatMap((dir) => {
    const kind = kindOf(dir);
    if (kind === 'none') throw new MergeError(`merge: there is no folder ${dir}`, 2);
    if (typeof kind === 'object') throw new MergeError(`merge: ${dir} cannot be read (${kind.unreadable})`, 2);
    if (kind !== 'folder') throw new MergeError(`merge: ${dir} is a file; give the shards' report folders`, 2);
    if (isReportFolder(dir)) return [dir];
    const inside = foldersIn(dir);
    if (inside.length === 0) throw new MergeError(`merge: ${dir} holds no shard's report folder (conformance.json)`, 2);
    return inside;
  });
}

/** A report file that cannot be read or taken: no verdict of the run. */
function readOrRefuse<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ReportFileError) throw new MergeError(error.message, 3);
    throw error;
  }
}

/** A shard's matrix, checked where it is read: the fields a merge relies on, within the bounds of any report. */
function matrixOf(file: string): ShardMatrix {
  const read = check<ShardMatrix>(
    schemaFile('shard-matrix.schema.json'),
    readOrRefuse(() => readJsonFile(file)),
  );
  if (!read.ok) throw new MergeError(`${file} is not a shard's report: run each shard with CONFORMANCE_SHARD=i/n (or -- --shard=i/n)`, 3);
  const count = Math.max(read.value.targets.length, read.value.runTargets.length);
  if (count > REPORT_TARGETS) throw new MergeError(`${file} names ${count} targets, more than the ${REPORT_TARGETS} this suite reads of a run`, 3);
  return read.value;
}

/** Why a target's bundle cannot be taken, in the merge's words. */
function bundleRefusal(name: string, { kind, bundle, detail }: BundleBesideError): MergeError {
  if (kind === 'none')
    return new MergeError(`the report of ${name} has no evidence bundle beside it (${bundle}): a report that cannot be checked is not merged`, 3);
  if (kind === 'unreadable') return new MergeError(`the evidence bundle of ${name} cannot be read: ${detail}`, 3);
  if (kind === 'changed') return new MergeError(`the report of ${name} is not the one its evidence bundle holds: it was changed after its run`, 3);
  if (kind === 'other-judge')
    return new MergeError(`the evidence bundle of ${name} cannot be judged again by this suite (${detail}): merge with the suite that judged the shards`, 3);
  return new MergeError(`the evidence bundle of ${name} does not hold: ${detail}`, 3);
}

/** A shard's place in its run as its matrix names it. */
const placeOf = (matrix: ShardMatrix): ShardOfRun => ({ shard: matrix.shard, run: matrix.run, runTargets: matrix.runTargets });

/**
 * Where a target's bundle says it was judged, against the run its shard's matrix names: the matrix is no file a
 * bundle covers, so a run id, a share or a list of targets changed there alone is caught here. The bundle's place
 * must be the matrix's, and the target one of that shard's share of the run (every n-th from the i-th).
 */
function placeDifference(name: string, said: ShardOfRun | undefined, matrix: ShardMatrix): string | undefined {
  const stands = placeOf(matrix);
  if (said === undefined) return `its evidence bundle names no shard of a run, and it came in the report folder of shard ${stands.shard}`;
  if (said.run !== stands.run) return `its evidence bundle says it was judged in run "${said.run}", and it came in the report folder of run "${stands.run}"`;
  if (said.shard !== stands.shard)
    return `its evidence bundle says it was judged in shard ${said.shard}, and it came in the report folder of shard ${stands.shard}`;
  if (!isDeepStrictEqual(said.runTargets, stands.runTargets)) return "its evidence bundle names other targets for its run than its shard's report folder does";
  const [current, total] = stands.shard.split('/').map(Number);
  if (stands.runTargets.indexOf(name) % total !== current - 1) return `it is not of shard ${stands.shard}'s share of the run`;
  return undefined;
}

/** One target of a shard: its report, checked against its schema and its clauses, as its bundle holds it, of the shard's run. */
function readTarget(dir: string, matrix: ShardMatrix, target: ShardMatrix['targets'][number]): ShardReports['targets'][number] {
  const folder = path.dirname(path.resolve(dir, target.report));
  if (path.dirname(folder) !== path.join(dir, 'targets')) throw new MergeError(`${dir}: the report of ${target.name} lies outside its targets/ folder`, 3);
  const file = path.join(folder, 'conformance.json');
  const bytes = readOrRefuse(() => readReportBytes(file));
  const value = readOrRefuse(() => jsonOf(bytes.toString('utf8'), file));
  let facts: ReturnType<typeof bundleBeside>['facts'];
  try {
    facts = bundleBeside(file, bytes, { judged: true }).facts;
  } catch (error) {
    if (error instanceof BundleBesideError) throw bundleRefusal(target.name, error);
    throw error;
  }
  const report = readOrRefuse(() => checkedReport(value, file));
  if (report.target.name !== target.name)
    throw new MergeError(`${dir}: the shard's report lists ${target.name}, and the report in ${folder} is of ${report.target.name}`, 3);
  const misplaced = placeDifference(target.name, facts?.shard, matrix);
  if (misplaced !== undefined) throw new MergeError(`no verdict: ${target.name} is not a target of the run its shard names: ${misplaced}`, 3);
  return { report, folder: path.basename(folder) };
}

/** One shard's folder: its matrix and each of its targets' reports, each named once. */
export function readShard(dir: string): ShardReports {
  const matrix = matrixOf(path.join(dir, 'conformance.json'));
  const names = matrix.targets.map((t) => t.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new MergeError(`${dir}: the shard's report lists ${twice} twice`, 3);
  return { matrix, targets: matrix.targets.map((t) => readTarget(dir, matrix, t)) };
}
