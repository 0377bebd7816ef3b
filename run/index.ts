// The package's library: a run, and the commands that read runs, each a function (docs/library.md). The command
// line (bin/) and Playwright (tests/) are two callers of the same functions.

export { runConformance, CONFIGURATION_EXIT_CODE } from './engine.ts';
export type { ConformanceOptions } from './settings.ts';
export type { RunResult, TargetResult } from './result.ts';
export type { Output } from './output.ts';
export type { CommandIO } from '../commands/command-io.ts';
export type { ConformanceReport, ClauseResult, Verdict } from '../reporters/conformance-result.ts';
export type { MatrixReport } from '../reporters/matrix-result.ts';
export { verify, merge, diff, document, trend } from './commands.ts';
