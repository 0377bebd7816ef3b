import { loadChecks } from '../checks/index.ts';
// What the judging does against a target (run/judge-run.ts), timed piece by piece in this process with the suite's own
// functions: send the plan, read the lists, judge every clause.
import { loadConfig } from '../harness/config/config.ts';
import { readJsonBody } from '../harness/json/json-body.ts';
import { judge } from '../harness/judging/judge.ts';
import { PROJECTS_PATH } from '../harness/recording/plan.ts';
import { record } from '../harness/recording/recording.ts';
import { referenceEnvironment } from '../reference-server/fixtures.ts';
import { formatMs, markdownTable } from './measure.ts';
import { ROOT } from './run.ts';

/** The configuration that points the suite at the reference server (or a variant of it) on `baseUrl`. */
export function targetEnv(baseUrl: string): Record<string, string> {
  return referenceEnvironment(baseUrl);
}

const elapsed = (since: number) => performance.now() - since;

/** One run's pieces: record() (requests sent, bodies received and decoded), the lists read, judge(). */
async function pieces(baseUrl: string): Promise<string[]> {
  const config = loadConfig(targetEnv(baseUrl), ROOT);
  let since = performance.now();
  const { recording } = await record(config);
  const recordMs = elapsed(since);
  const lists = recording.exchanges.filter((e) => e.request.credential === 'admin' && e.request.path.startsWith(PROJECTS_PATH));
  since = performance.now();
  for (const list of lists) readJsonBody(list.bodyText ?? '');
  const readMs = elapsed(since);
  since = performance.now();
  judge(recording, config, loadChecks());
  const judgeMs = elapsed(since);
  const mib = recording.exchanges.reduce((n, e) => n + e.bodyBytes, 0) / 2 ** 20;
  return [String(recording.exchanges.length), mib.toFixed(1), formatMs(recordMs), formatMs(readMs), formatMs(judgeMs)];
}

/**
 * The judging's pieces against each target, in turn, in this process: the first judge() of a process
 * compiles the contracts, as a run's does, so the first target is measured once more after it.
 */
export async function judgingPieces(targets: [name: string, baseUrl: string][]): Promise<string> {
  const rows: string[][] = [];
  for (const [i, [name, url]] of [targets[0], ...targets].entries()) rows.push([i === 0 ? `${name} (first in the process)` : name, ...(await pieces(url))]);
  return markdownTable(
    ['target', 'requests', 'bodies MiB', 'record() ms', 'readJsonBody of the 3 lists ms', 'judge() ms, every clause, lists read again'],
    rows,
  );
}
