import { ConfigError } from '../harness/files/config-error.ts';
import type { Source } from '../harness/config/sources.ts';
import type { Output } from './output.ts';
import type { TargetResult } from './result.ts';

// What a caller of runConformance gives: the settings as one value, typed, each the twin of one of the command's
// variables, or the variables themselves (`env`), read exactly as the command reads its environment. One reader
// either way (harness/config/): a typed setting becomes its variable, and nothing else is read differently.

export interface ConformanceOptions {
  /** The command's variables (CONFORMANCE_BASE_URL, ...); a `.env` in `cwd` is read too, as the command reads it. */
  env?: Record<string, string | undefined>;
  /** The folder relative paths are taken from, and `.env` read in; default the process's. */
  cwd?: string;
  baseUrl?: string;
  adminToken?: string;
  signupTokens?: string[];
  targetName?: string;
  /** A YAML target file. */
  target?: string;
  /** Several target files or fleet files, judged side by side. */
  targets?: string[];
  /** The profiles the run claims; default every profile. */
  claim?: string[];
  /** A known-deviations file. */
  deviations?: string;
  /** A run to compare this one with: a report folder, a conformance.json or an evidence bundle. */
  baseline?: string;
  /** What fails the run: any MUST violation (`must`, the default), or only a regression against the baseline. */
  gate?: 'must' | 'regressions';
  /** A run history (JSON Lines) the run labels its clauses against and appends its targets' lines to; outside the report folder. */
  history?: string;
  /** How many runs of each target the history keeps; default 50. */
  historyRuns?: number;
  /** How old a clause's last verdict in the history may be (`90m`, `24h`, `7d`) before a run that leaves it out labels it stale. */
  staleAfter?: string;
  /** Where reports go; default conformance-report/ in `cwd`. */
  reportDir?: string;
  /** An evidence bundle to judge instead of a target: nothing is sent. */
  replay?: string;
  /** Check the embedded reference target (true), or never (false). */
  embedded?: boolean;
  /** A PEM private key: a run with a verdict signs an attestation of its evidence bundle. */
  signingKey?: string;
  /** `i/n`: judge the i-th of n shares of `targets`. */
  shard?: string;
  /** How many more times a failed clause's requests are sent, the clause judged again on each: failing some of the time is flaky, no verdict. */
  confirm?: number;
  /** The bound on the whole run, in milliseconds. */
  runTimeoutMs?: number;
  /** The clauses to judge, by id; default every clause. A clause left out is not judged, and the claim says so. */
  clauses?: string[];
  /** Stops the run: requests in flight are aborted, and the reports say interrupted. */
  signal?: AbortSignal;
  /** Hears of each target once its reports are written, before the run ends. */
  onTarget?: (target: TargetResult) => void;
  /** Where the run's lines go: `silent` (the default), `terminal`, or a pair of functions. */
  output?: 'silent' | 'terminal' | Output;
}

/** Each typed setting's variable, and how its value is written there. */
const VARIABLES: Record<string, { variable: string; kind: 'text' | 'list' | 'flag' | 'number' }> = {
  baseUrl: { variable: 'CONFORMANCE_BASE_URL', kind: 'text' },
  adminToken: { variable: 'CONFORMANCE_ADMIN_TOKEN', kind: 'text' },
  signupTokens: { variable: 'CONFORMANCE_SIGNUP_TOKENS', kind: 'list' },
  targetName: { variable: 'CONFORMANCE_TARGET_NAME', kind: 'text' },
  target: { variable: 'CONFORMANCE_TARGET', kind: 'text' },
  targets: { variable: 'CONFORMANCE_TARGETS', kind: 'list' },
  claim: { variable: 'CONFORMANCE_CLAIM', kind: 'list' },
  deviations: { variable: 'CONFORMANCE_DEVIATIONS', kind: 'text' },
  baseline: { variable: 'CONFORMANCE_BASELINE', kind: 'text' },
  gate: { variable: 'CONFORMANCE_GATE', kind: 'text' },
  history: { variable: 'CONFORMANCE_HISTORY', kind: 'text' },
  historyRuns: { variable: 'CONFORMANCE_HISTORY_RUNS', kind: 'number' },
  staleAfter: { variable: 'CONFORMANCE_STALE_AFTER', kind: 'text' },
  reportDir: { variable: 'CONFORMANCE_REPORT_DIR', kind: 'text' },
  replay: { variable: 'CONFORMANCE_REPLAY', kind: 'text' },
  embedded: { variable: 'CONFORMANCE_EMBEDDED', kind: 'flag' },
  signingKey: { variable: 'CONFORMANCE_SIGNING_KEY', kind: 'text' },
  shard: { variable: 'CONFORMANCE_SHARD', kind: 'text' },
  confirm: { variable: 'CONFORMANCE_CONFIRM', kind: 'number' },
  runTimeoutMs: { variable: 'CONFORMANCE_RUN_TIMEOUT_MS', kind: 'number' },
};

/** The options that are no setting of the run's configuration. */
const OTHERS = new Set(['env', 'cwd', 'clauses', 'signal', 'onTarget', 'output']);

const KIND_WORDS = { text: 'a string', list: 'an array of strings', flag: 'true or false', number: 'a positive integer' };

function written(value: unknown, kind: keyof typeof KIND_WORDS): string | undefined {
  if (kind === 'text' && typeof value === 'string') return value;
  if (kind === 'list' && Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(',');
  if (kind === 'flag' && typeof value === 'boolean') return String(value);
  if (kind === 'number' && Number.isInteger(value) && (value as number) > 0) return String(value);
  return undefined;
}

/**
 * The variables a run reads, from the options: `env`, with each typed setting over its variable. A setting of
 * the wrong type, or a name that is none, is a configuration error naming it, never its value (it may be a token).
 */
export function variablesOf(options: ConformanceOptions): Source {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new ConfigError('the options of runConformance are an object');
  const env: Source = {};
  if (options.env !== undefined) {
    if (options.env === null || typeof options.env !== 'object') throw new ConfigError('the option env is an object of variables');
    for (const [name, value] of Object.entries(options.env)) {
      if (value !== undefined && typeof value !== 'string') throw new ConfigError(`env.${name} is not a string (its value is not shown)`);
      env[name] = value;
    }
  }
  for (const [name, value] of Object.entries(options)) {
    if (OTHERS.has(name) || value === undefined) continue;
    const setting = VARIABLES[name];
    if (setting === undefined)
      throw new ConfigError(`runConformance has no option "${name.slice(0, 60)}"; the options are ${[...Object.keys(VARIABLES), ...OTHERS].join(', ')}`);
    const text = written(value, setting.kind);
    if (text === undefined) throw new ConfigError(`the option ${name} is not ${KIND_WORDS[setting.kind]} (its value is not shown)`);
    env[setting.variable] = text;
  }
  return env;
}
