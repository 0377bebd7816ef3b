import type { JudgedBy } from '../harness/run-identity.ts';
import type { RunFacts } from '../harness/verdicts.ts';

// A report is of one run: its tests' facts name one target, judged by one suite with one configuration.
// Shards' blob reports of two runs, merged, would put one target's verdicts under another's name.

const targetText = (t: RunFacts['target']) => (t.embedded ? `the ${t.name}` : `${t.name} (${t.baseUrl})`);
const targetKey = (t: RunFacts['target']) => (t.embedded ? `embedded ${t.name}` : `${t.name} ${t.baseUrl}`);
const suiteText = (j: JudgedBy) => `suite ${j.suiteVersion}, contracts ${j.contractsHash}, document ${j.documentSha256.slice(0, 16)}`;

/** The first pair of facts that differ in `key`, when some do. */
function differing<K>(facts: RunFacts[], key: (f: RunFacts) => K): [RunFacts, RunFacts] | undefined {
  const other = facts.find((f) => JSON.stringify(key(f)) !== JSON.stringify(key(facts[0])));
  return other && [facts[0], other];
}

function difference(facts: RunFacts[], here: JudgedBy): string | undefined {
  if (facts.some((f) => f.judgedBy === undefined || f.configuration === undefined))
    return 'a shard does not name the suite and configuration it ran with (an earlier version of the suite made it)';
  const targets = differing(facts, (f) => targetKey(f.target));
  if (targets) return `one shard checked ${targetText(targets[0].target)}, another ${targetText(targets[1].target)}`;
  // A replay's shards start when each does, but the run they replay started once: at the bundle's start.
  const replays = facts[0].replay && differing(facts, (f) => f.startedAt);
  if (replays) return `one shard replayed a run that started at ${replays[0].startedAt}, another one that started at ${replays[1].startedAt}`;
  const suites = differing(facts, (f) => f.judgedBy);
  if (suites) return `one shard was judged by ${suiteText(suites[0].judgedBy!)}, another by ${suiteText(suites[1].judgedBy!)}`;
  if (JSON.stringify(facts[0].judgedBy) !== JSON.stringify(here))
    return `the shards were judged by ${suiteText(facts[0].judgedBy!)}, and this is ${suiteText(here)}; merge them with the suite that ran them`;
  if (differing(facts, (f) => f.configuration))
    return `the shards of ${targetText(facts[0].target)} ran with different configurations (the tokens given, limits, deviations, product or OpenAPI path)`;
  return undefined;
}

/**
 * Why the facts of a target's tests are not of one run, if they are not: then no clause of theirs is judged.
 * The facts of one run (every worker attaches them) are alike but for when each shard started.
 */
export function notOneRun(facts: RunFacts[], here: JudgedBy): string | undefined {
  if (facts.length === 0) return undefined;
  const why = difference(facts, here);
  return why && `the blob reports are not of one run: ${why}; merge only the blob reports of one run's shards`;
}
