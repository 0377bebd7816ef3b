import type { TargetConfig } from '../config/config.ts';
import { PROJECTS_PATH } from './plan.ts';
import type { Recording } from './recording.ts';

/**
 * Conditions under which no data clause can be judged at all. The run stops at once with one line that
 * says what happened, rather than reporting every clause errored one by one.
 */
export function preflightProblem(config: Pick<TargetConfig, 'baseUrl'>, recording: Recording): string | undefined {
  const { exchanges } = recording;
  if (exchanges.length > 0 && exchanges.every((e) => e.failure !== undefined)) {
    // A status line means the target answered; the answer then broke off, or could not be read.
    const answered = exchanges.find((e) => e.status !== undefined);
    if (answered !== undefined) return `the target at ${config.baseUrl} answered no request completely: GET ${answered.request.path}: ${answered.failure}`;
    return `no request to ${config.baseUrl} got an answer: ${exchanges[0].failure}`;
  }
  // Both documented paths unknown, to every credential: the base URL, not the target, is what is wrong.
  const answered = exchanges.filter((e) => e.status !== undefined);
  if (answered.some((e) => e.request.credential === 'admin') && answered.every((e) => e.status === 404)) {
    return `every request was answered 404, the admin token's too: is the base URL ${config.baseUrl} missing a path prefix, such as /unleash? (CONFORMANCE_BASE_URL is everything before /api/admin)`;
  }
  const adminProjects = exchanges.find((e) => e.request.credential === 'admin' && e.request.path === PROJECTS_PATH);
  const adminAnswers = exchanges.filter((e) => e.request.credential === 'admin' && e.status !== undefined);
  if (adminProjects?.status !== undefined && adminAnswers.every((e) => e.status === 401 || e.status === 403)) {
    return `the target refused CONFORMANCE_ADMIN_TOKEN: GET ${PROJECTS_PATH} answered ${adminProjects.status}; give a token that may call both operations`;
  }
  return undefined;
}

/** An error whose printed form is the message alone: the reason is the user's, no stack trace helps. */
export function runStopped(reason: string): Error {
  const error = new Error(`conformance run stopped: ${reason}`);
  error.stack = error.message;
  return error;
}
