import path from 'node:path';
import { closest } from '../files/closest.ts';
import { ConfigError } from '../files/config-error.ts';
import { realPath, within } from '../files/folders.ts';
import { variable, type Variables } from './sources.ts';

// What the exit code follows: any MUST violation (the default), or only a regression against a baseline run
// (the ratchet a team uses while it works down the failures it knows). The baseline is named here; reading
// it, through the reader of the diff command, is run/prepare.ts's.

/** A run to compare this one with: a report folder, a conformance.json or an evidence bundle. */
export const BASELINE_VARIABLE = 'CONFORMANCE_BASELINE';

/** What fails the run: `must`, any MUST violation; `regressions`, only what got worse against the baseline. */
export const GATE_VARIABLE = 'CONFORMANCE_GATE';

export const GATES = ['must', 'regressions'] as const;
export type Gate = (typeof GATES)[number];

export interface GateSetting {
  gate: Gate;
  /** The baseline as given, and where it is. */
  baseline?: { source: string; file: string };
}

/** A gate's name as written; anything unlike one is not quoted, as it may be a secret pasted in the wrong place. */
const GATE_NAME = /^[a-z-]{1,40}$/i;

function gateGiven(raw: string | undefined): Gate {
  if (raw === undefined) return 'must';
  const text = raw.trim();
  const gate = GATES.find((g) => g === text);
  if (gate !== undefined) return gate;
  const word = GATE_NAME.test(text);
  const meant = word ? closest(text.toLowerCase(), [...GATES]) : undefined;
  throw new ConfigError(
    `${GATE_VARIABLE} is ${word ? `"${text}"` : 'a value (not shown, as it may be a secret)'}${meant ? ` (did you mean ${meant}?)` : ''}; give must (any MUST violation fails the run, the default) or regressions (only a regression against ${BASELINE_VARIABLE} fails it)`,
  );
}

/**
 * The gate and the baseline as set, checked before any request; `reportDir` is the run's report folder, which
 * the run clears. An empty value counts as unset, as for every setting that names no target.
 */
export function gateOf(variables: Variables, cwd: string, reportDir: string): GateSetting {
  const given = (name: string) => {
    const value = variable(variables, name);
    return value === '' ? undefined : value;
  };
  const gate = gateGiven(given(GATE_VARIABLE));
  const source = given(BASELINE_VARIABLE);
  if (source === undefined) {
    if (gate === 'regressions')
      throw new ConfigError(
        `${GATE_VARIABLE}=regressions fails the run only on a regression against a baseline, and ${BASELINE_VARIABLE} is not set: give the report folder, conformance.json or evidence bundle of the run to compare with`,
      );
    return { gate };
  }
  if (source.trim() === '') throw new ConfigError(`${BASELINE_VARIABLE} holds only spaces: give a report folder, a conformance.json or an evidence bundle`);
  const file = path.resolve(cwd, source);
  // The run clears its report folder and writes its own reports there: a baseline inside it would be this run
  // the next time, and a regression would pass the gate on its second run.
  if (within(realPath(file), realPath(reportDir)))
    throw new ConfigError(
      `${BASELINE_VARIABLE} ${file} lies in the report folder ${reportDir}, which this run clears: the next run would compare with this one; copy the baseline elsewhere and name the copy`,
    );
  return { gate, baseline: { source, file } };
}
