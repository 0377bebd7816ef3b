// How a run of several targets is carried: up to eight targets are each a Playwright project of their own
// (tests/), beyond that a fleet, one test per clause carrying every target's verdict, so that neither a worker
// per target nor a restart per failing clause of each target grows with its size.

/** The most targets a run carries as one Playwright project each. */
export const PROJECTS_AT_MOST = 8;

interface Shape {
  multi: boolean;
  targets: { name: string }[];
}

/** The Playwright projects of a run, one per target, by name; none for a single target or a fleet. */
export const projectsOf = (run: Shape): string[] | undefined =>
  run.multi && run.targets.length <= PROJECTS_AT_MOST ? run.targets.map((t) => t.name) : undefined;

/** Whether the run is a fleet: several targets, beyond as many as have a project each. */
export const isFleet = (run: Shape) => run.multi && projectsOf(run) === undefined;

/**
 * Playwright's options that never narrow the tests it runs, and whether each takes a value. Any other option, and
 * any test filter, may narrow them (`--grep`, `--project`, `--last-failed`, `--only-changed`, `--test-list`, a file
 * name...): a list of what is known to be harmless, so that an option Playwright adds narrows until it is listed.
 */
const NOT_NARROWING: Record<string, 'value' | 'none'> = {
  ...Object.fromEntries(
    ['--reporter', '--add-reporter', '-j', '--workers', '--timeout', '--global-timeout', '--max-failures', '--output', '--retries']
      .concat(['--repeat-each', '--trace', '--tsconfig', '--browser', '-c', '--config', '--update-source-method'])
      .map((name) => [name, 'value']),
  ),
  ...Object.fromEntries(
    ['-x', '--quiet', '--forbid-only', '--fully-parallel', '--headed', '--fail-on-flaky-tests', '--pass-with-no-tests', '--no-deps', '--ignore-snapshots'].map(
      (name) => [name, 'none'],
    ),
  ),
};

/**
 * Whether the command line of `playwright test` may narrow the tests it runs to fewer than every clause: then a run
 * cannot judge every clause before the tests are chosen. `argv` is the process's (node, Playwright's cli, `test`, ...).
 */
export function mayNarrow(argv: string[]): boolean {
  const args = argv.slice(2);
  if (args[0] === 'test') args.shift();
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = [args[i].split('=')[0], args[i].includes('=')];
    const takes = NOT_NARROWING[name];
    if (takes === undefined) return true;
    if (takes === 'value' && !inline) i++;
  }
  return false;
}
