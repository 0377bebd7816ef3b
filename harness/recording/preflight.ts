import type { TargetConfig } from '../config/config.ts';
import { PROJECTS_PATH } from './plan.ts';
import type { Recording } from './recording.ts';
import { isJsonMediaType, type Exchange } from '../transport/exchange.ts';

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
  return (
    notTheApi(
      config.baseUrl,
      exchanges.filter((e) => e.status !== undefined),
    ) ?? refusedToken(exchanges)
  );
}

/** What a base URL that serves something else than this API looks like, however the answers look otherwise. */
const CHECK_THE_PATH = 'check the path: the base URL is everything before /api/admin, such as https://unleash.example.com or http://host:4242/unleash';

const isRedirect = (status: number) => status >= 300 && status < 400;
const looksLikeJson = (e: Exchange) => isJsonMediaType(e.contentType) || /^\s*[[{]/.test(e.bodyText ?? '');

/**
 * A base URL that does not serve the admin API (a path prefix missing or extra, a web UI that answers every path
 * with its page, http where only https answers): no answer the judge could read is the target's, so the run says
 * what it found and no clause is judged, rather than blame the deployment for the address it was given.
 */
function notTheApi(baseUrl: string, answered: Exchange[]): string | undefined {
  const head = `this does not look like the admin API at ${baseUrl}`;
  const admin = answered.filter((e) => e.request.credential === 'admin');
  // The admin token's GET /api/admin/projects is never 404 where the API is: its path is not there.
  if (admin.length > 0 && admin.every((e) => e.status === 404)) return `${head}: every request with the admin token was answered 404; ${CHECK_THE_PATH}`;
  // Quoted: the answer to GET /api/admin/projects, whose path holds no secret.
  const first = answered.find((e) => e.request.path === PROJECTS_PATH) ?? answered[0];
  if (first && answered.every((e) => isRedirect(e.status!)))
    return `${head}: every request was answered with a redirect (${first.status}${first.location ? ` to ${first.location}` : ''}), which the suite never follows; ${CHECK_THE_PATH}, and whether it takes https://`;
  // The API answers a request without a token 401 with an error object: a page for every request, those without a token too, is something else.
  if (first && answered.every((e) => e.status! >= 200 && e.status! < 300 && !looksLikeJson(e)))
    return `${head}: every request was answered ${first.status} ${first.contentType ?? 'without a content type'}, no JSON, those without a token too; ${CHECK_THE_PATH}`;
  return undefined;
}

function refusedToken(exchanges: Exchange[]): string | undefined {
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
