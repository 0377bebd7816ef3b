import { visible } from '../harness/files/visible.ts';
import { REGRESSIONS } from '../reporters/change.ts';
import { HistoryFileError, readHistory } from '../reporters/history-file.ts';
import type { HistoryLine } from '../reporters/history-line.ts';
import { VERDICT_LABEL } from '../reporters/sections.ts';
import { changeSince, transitionOf } from '../reporters/transition.ts';
import { readArguments } from './arguments.ts';
import type { CommandIO } from './command-io.ts';
import path from 'node:path';

// `admin-api-conformance history FILE [--target NAME] [--clause ID] [--profile NAME]`: the run history
// (CONFORMANCE_HISTORY) as each target's timeline. With --clause, that clause's outcome run by run; with
// --profile, since when each target meets it. A run's changes are the ones `diff` names (reporters/change.ts).
// Exit 1 when a clause regressed in a target's last run, 0 otherwise; 2 when the file cannot be read or the
// arguments are wrong.

const USAGE = 'usage: admin-api-conformance history <history file> [--target <name>] [--clause <id>] [--profile <name>]';

class HistoryError extends Error {}

interface Asked {
  file: string;
  target?: string;
  clause?: string;
  profile?: string;
}

function parse(args: string[]): Asked {
  const read = readArguments(args, { target: 'value', clause: 'value', profile: 'value' }, USAGE);
  if ('mistake' in read) throw new HistoryError(read.mistake);
  if (read.positionals.length !== 1) throw new HistoryError(USAGE);
  return { file: read.positionals[0], target: read.value('target'), clause: read.value('clause'), profile: read.value('profile') };
}

/** The clauses that regressed in a target's last run against its runs before it, as `diff` would name them. */
export function regressedInLast(runs: HistoryLine[]): string[] {
  const last = runs.at(-1);
  if (last === undefined) return [];
  const earlier = runs.slice(0, -1);
  return Object.keys(last.clauses).filter((id) => {
    const kind = changeSince(id, earlier, last);
    return kind !== undefined && REGRESSIONS.includes(kind);
  });
}

/** Since when the target meets the profile: its last run that did not, and how many have since. */
export function meetsSince(runs: HistoryLine[], profile: string): string {
  const last = runs.at(-1);
  const status = last?.claim.status[profile];
  if (last === undefined || status === undefined) return `no run names the profile ${profile}`;
  if (status !== 'met') return `does not meet ${profile} in its last run (${status}, ${last.startedAt})`;
  let from = runs.length - 1;
  while (from > 0 && runs[from - 1].claim.status[profile] === 'met') from -= 1;
  const n = runs.length - from;
  const since = from === 0 ? `since its first run in the history (${runs[0].startedAt})` : `since ${runs[from].startedAt} (run ${runs[from].run})`;
  return `meets ${profile} ${since}, ${n} run${n === 1 ? '' : 's'} in a row`;
}

/** One run's line of a timeline: when, which run, the verdict, the product, and what changed since the run before. */
function runLine(runs: HistoryLine[], i: number, clause: string | undefined): string {
  const l = runs[i];
  const product = l.product ? ` ${l.product.name}${l.product.version ? ` ${l.product.version}` : ''}` : '';
  if (clause !== undefined) {
    const status = l.clauses[clause] ?? 'absent';
    return `  ${l.startedAt}  ${l.run}  ${status}${l.clauses[clause] ? `  (${transitionOf(clause, runs.slice(0, i), l)})` : ''}${product}`;
  }
  const changes = Object.keys(l.clauses).flatMap((id) => {
    const kind = changeSince(id, runs.slice(0, i), l);
    return kind === 'regressed' || kind === 'fixed' || kind === 'deviation-ended' ? [`${kind} ${id}`] : [];
  });
  return `  ${l.startedAt}  ${l.run}  ${VERDICT_LABEL[l.verdict]}${product}${changes.length > 0 ? `  ${changes.join(', ')}` : ''}`;
}

/** One target's timeline, and what regressed in its last run. */
function timeline(runs: HistoryLine[], asked: Asked, out: (line: string) => void): string[] {
  const [first] = runs;
  out(`${first.target.name} (${first.target.baseUrl}): ${runs.length} run${runs.length === 1 ? '' : 's'}`);
  if (asked.profile !== undefined) out(`  ${meetsSince(runs, asked.profile)}`);
  else runs.forEach((_, i) => out(runLine(runs, i, asked.clause)));
  const regressed = regressedInLast(runs).filter((id) => asked.clause === undefined || id === asked.clause);
  out(`  last run: ${regressed.length === 0 ? 'nothing regressed' : `regressed: ${regressed.join(', ')}`}`);
  return regressed;
}

function history(asked: Asked, io: CommandIO): number {
  const read = readHistory(path.resolve(io.cwd, asked.file));
  for (const damaged of read.damaged) io.output.err(`admin-api-conformance history: ${visible(damaged)}; left out\n`);
  const lines = read.lines.filter((l) => asked.target === undefined || l.target.name === asked.target);
  if (lines.length === 0)
    throw new HistoryError(asked.target === undefined ? `${asked.file} holds no run` : `${asked.file} holds no run of the target ${asked.target}`);
  if (asked.clause !== undefined && !lines.some((l) => asked.clause! in l.clauses))
    throw new HistoryError(`no run of ${asked.file} has the clause ${asked.clause}`);
  const names = [...new Set(lines.map((l) => l.target.name))];
  const out = (line: string) => io.output.out(`${visible(line)}\n`);
  const regressed = names.flatMap((name) =>
    timeline(
      lines.filter((l) => l.target.name === name),
      asked,
      out,
    ),
  );
  return regressed.length > 0 ? 1 : 0;
}

/** Prints the history's timelines: its exit code, its lines printed. */
export function historyCommand(args: string[], io: CommandIO): number {
  try {
    return history(parse(args), io);
  } catch (error) {
    if (!(error instanceof HistoryError) && !(error instanceof HistoryFileError)) throw error;
    io.output.err(`admin-api-conformance history: ${visible(error.message)}\n`);
    return 2;
  }
}
