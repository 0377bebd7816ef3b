import type { ConformanceReport } from '../reporters/conformance-result.ts';
import { ageMinutes, ageText } from '../reporters/fleet.ts';
import { buildMatrixReport, matrixVerdict, type MatrixReport } from '../reporters/matrix-result.ts';
import { EXIT_CODE } from '../reporters/conformance-result.ts';
import { gateVerdict } from '../reporters/gate.ts';
import type { Freshness } from '../harness/config/freshness.ts';

export { staleAfterMinutes } from '../harness/config/freshness.ts';

// Shards split a run's targets (CONFORMANCE_SHARD): each judged its own targets whole. Merging puts their
// reports back together as the run's matrix, and tells what is missing or not of one run.

/** One shard's report folder as read: its matrix, and its targets' own reports with the folder each came from. */
/** What a merge takes of a shard's matrix (harness/files/schemas/shard-matrix.schema.json checks it where it is read). */
export interface ShardMatrix {
  kind: 'matrix';
  shard: string;
  runTargets: string[];
  run: string;
  targets: { name: string; report: string }[];
  suite: { version: string; contractsHash: string };
  document: { sha256: string };
  durationMs: number;
}

export interface ShardReports {
  matrix: ShardMatrix;
  targets: { report: ConformanceReport; folder: string }[];
}

/** Why these shards are not the shards of one run, if they are not. */
function notOneRun(shards: ShardReports[]): string | undefined {
  const [first] = shards;
  const elsewhere = shards.find((s) => s.matrix.run !== first.matrix.run);
  if (elsewhere)
    return `shard ${elsewhere.matrix.shard} is of run "${elsewhere.matrix.run}", shard ${first.matrix.shard} of run "${first.matrix.run}": merge the shards of one run (a re-run of some shards is another run: re-run them all)`;
  // Which judge each shard had: the suite and its contracts, and the text of the document, each named where they differ.
  const judge = (m: ShardMatrix) => `${m.suite.version} (contracts ${m.suite.contractsHash})`;
  const bySuite = shards.find((s) => judge(s.matrix) !== judge(first.matrix));
  if (bySuite) return `shard ${bySuite.matrix.shard} was judged by ${judge(bySuite.matrix)}, shard ${first.matrix.shard} by ${judge(first.matrix)}`;
  const byDocument = shards.find((s) => s.matrix.document.sha256 !== first.matrix.document.sha256);
  if (byDocument)
    return `shard ${byDocument.matrix.shard} was judged against the text of the document of SHA-256 ${byDocument.matrix.document.sha256}, shard ${first.matrix.shard} against ${first.matrix.document.sha256}: one run is judged against one text`;
  const targets = shards.find((s) => JSON.stringify(s.matrix.runTargets) !== JSON.stringify(first.matrix.runTargets));
  if (targets) return `shard ${targets.matrix.shard} and shard ${first.matrix.shard} name different targets for their run`;
  const total = (m: ShardMatrix) => m.shard?.split('/')[1];
  const split = shards.find((s) => total(s.matrix) !== total(first.matrix));
  if (split) return `shard ${split.matrix.shard} and shard ${first.matrix.shard} split the run into different numbers of shards`;
  const seen = shards.map((s) => s.matrix.shard);
  const twice = seen.find((s, i) => seen.indexOf(s) !== i);
  if (twice) return `two report folders are of shard ${twice}`;
  return undefined;
}

/**
 * The run's matrix from its shards' reports, each target's report at `targets/<folder>/`: refused when the
 * shards are not of one run; partial, naming them, when targets of the run have no report.
 */
export function mergeShards(shards: ShardReports[]): { matrix: MatrixReport } | { refused: string } {
  if (shards.length === 0) return { refused: 'no shard report to merge' };
  const unsharded = shards.find((s) => s.matrix.shard === undefined || s.matrix.runTargets === undefined);
  if (unsharded) return { refused: "a report folder is not a shard's: run each shard with CONFORMANCE_SHARD=i/n (or -- --shard=i/n)" };
  const why = notOneRun(shards);
  if (why) return { refused: `the report folders are not of one run: ${why}` };
  const runTargets = shards[0].matrix.runTargets!;
  const byName = new Map(shards.flatMap((s) => s.targets).map((t) => [t.report.target.name, t]));
  const present = runTargets.filter((name) => byName.has(name));
  if (present.length === 0) return { refused: 'the shards hold no target report' };
  const reports = present.map((name) => ({ report: byName.get(name)!.report, path: `targets/${byName.get(name)!.folder}/index.html` }));
  const matrix = buildMatrixReport(reports, Math.max(...shards.map((s) => s.matrix.durationMs)));
  const missing = runTargets.filter((name) => !byName.has(name));
  if (missing.length === 0) return { matrix };
  const error = `no report of ${missing.length} of the run's ${runTargets.length} targets (${missing.join(', ')}): merge every shard's report folder`;
  return { matrix: { ...matrix, verdict: matrix.verdict === 'fail' ? 'fail' : 'partial', errors: [error, ...matrix.errors] } };
}

/** What makes a collected result stale: an age past `staleAfter` minutes, or another version than the one deployed now, by target. */
export interface Staleness {
  staleAfter?: Freshness;
  deployed?: Map<string, string>;
}

/** How far a result's date may lie after its collection: two machines' clocks differ by a few minutes. */
export const CLOCK_SKEW_MINUTES = 5;

/** How many whole minutes a date lies after `now`; 0 when it does not. */
const aheadMinutes = (startedAt: string, now: string) => Math.max(0, Math.floor((Date.parse(startedAt) - Date.parse(now)) / 60_000));

function staleness(t: MatrixReport['targets'][number], now: string, { staleAfter, deployed }: Staleness): string | undefined {
  const age = t.startedAt === undefined ? undefined : ageMinutes(t.startedAt, now);
  // A result dated after its collection has no age to hold to --stale-after: its date says nothing of when it was taken.
  const ahead = t.startedAt === undefined ? 0 : aheadMinutes(t.startedAt, now);
  if (staleAfter && ahead > CLOCK_SKEW_MINUTES)
    return `dated ${ageText(ahead)} after this collection, so its age cannot be held to --stale-after ${staleAfter.given}: a clock is wrong, or the report was changed`;
  if (staleAfter && age !== undefined && age > staleAfter.minutes)
    return `taken ${ageText(age)} before this collection, longer ago than --stale-after ${staleAfter.given}`;
  const version = deployed?.get(t.name);
  if (version !== undefined && t.product?.version !== version)
    return `taken against ${t.product?.version === undefined ? 'no stated version' : `version ${t.product.version}`}; ${version} is deployed now`;
  return undefined;
}

/**
 * The matrix as collected at `now`: each target's age counted to it, and those stale marked. A stale result is
 * no result of today's: a matrix that would pass has no verdict (partial), naming them; any other keeps its own.
 */
export function collected(matrix: MatrixReport, now: string, stale: Staleness = {}): MatrixReport {
  const targets = matrix.targets.map((t) => {
    const why = staleness(t, now, stale);
    return why === undefined ? t : { ...t, stale: why };
  });
  const names = targets.filter((t) => t.stale !== undefined).map((t) => t.name);
  const base = { ...matrix, collectedAt: now, targets };
  if (names.length === 0) return base;
  const error = `${names.length} of ${targets.length} targets' results are stale (${names.join(', ')}): judge them again`;
  return { ...base, verdict: matrix.verdict === 'pass' ? 'partial' : matrix.verdict, errors: [error, ...matrix.errors] };
}

/**
 * The merge's exit code, by the gate each target's run was held to (reporters/gate.ts): under the ratchet, the
 * failures its baseline had are set aside. A target of the run missing from the collection, or stale, leaves
 * no verdict, whatever the gate.
 */
export function mergedExitCode(matrix: MatrixReport, reports: ConformanceReport[], runTargets: number): number {
  const lacking = matrix.targets.length < runTargets || matrix.targets.some((t) => t.stale !== undefined);
  return EXIT_CODE[matrixVerdict([...reports.map(gateVerdict), ...(lacking ? (['partial'] as const) : [])])];
}
