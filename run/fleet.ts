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
