import { spawnSync } from 'node:child_process';

// Debian's prometheus package: promtool reads what the suite writes, as a real Prometheus would. `.ci/run` and
// `npm test` install it when missing (self-tests/support/ensure-prometheus.sh).

export const PROMTOOL = process.env.ADMIN_API_CONFORMANCE_PROMTOOL || 'promtool';
export const PROMETHEUS = process.env.ADMIN_API_CONFORMANCE_PROMETHEUS || 'prometheus';

/** promtool's exit code and what it printed. */
export function promtool(args: string[], input?: string): { status: number | null; output: string } {
  const run = spawnSync(PROMTOOL, args, { input, encoding: 'utf8', timeout: 30_000 });
  if (run.error)
    throw new Error(`promtool could not be run (${run.error.message}): install Debian's prometheus package (bash self-tests/support/ensure-prometheus.sh)`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
