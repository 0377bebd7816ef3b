import type { Output } from '../commands/command-io.ts';

// Where a run's lines go: the command's terminal, a test's capture, or nowhere for a script that reads only the
// result. Everything printed is the suite's own words, a target's or a file's text escaped before (visible()).

export { TERMINAL, type Output } from '../commands/command-io.ts';

/** A run that prints nothing: a script reads its result. */
export const SILENT: Output = { out: () => {}, err: () => {} };
