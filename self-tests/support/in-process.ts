import { loadChecks } from '../../checks/index.ts';
import type { JudgeInput } from '../../harness/judging/answers.ts';
import { forbiddenCredentials, type ForbiddenCredential } from '../../harness/config/tokens.ts';
import type { Exchange } from '../../harness/transport/exchange.ts';
import { judge } from '../../harness/judging/judge.ts';
import { descriptionRequest, makeRunSecrets, requestPlan } from '../../harness/recording/plan.ts';
import type { Recording } from '../../harness/recording/recording.ts';
import type { Outcome } from '../../harness/judging/violations.ts';
import { DESCRIPTION_PATH } from '../../reference-server/description.ts';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { answer, serialise, type Variant } from '../../reference-server/server.ts';

// The judge tested as data: a variant's answers to the suite's request plan, made without a network,
// judged in this process. The few black-box runs prove that HTTP, Playwright and the reports carry the
// same verdicts.

/** The reference target's configuration, as the embedded target announces it. */
export const REFERENCE_INPUT: JudgeInput & { adminToken: string; forbidden: ForbiddenCredential[] } = {
  adminToken: REFERENCE_FIXTURES.adminToken,
  signupTokens: [...REFERENCE_FIXTURES.signupTokens],
  forbidden: forbiddenCredentials([REFERENCE_FIXTURES.forbiddenToken], [REFERENCE_FIXTURES.viewerToken], []),
  // The reference implementation publishes its own description, as the embedded target announces.
  openapiPath: DESCRIPTION_PATH,
};

const ORIGIN = 'http://reference.invalid';

/** The recording a run against the variant would make, answered in process. */
export function recordInProcess(variant: Variant | undefined, input = REFERENCE_INPUT, now = Date.now()): Recording {
  const run = makeRunSecrets();
  const tokens = new Map<string, string>([
    ['admin', input.adminToken],
    ['invalid', run.invalidToken],
  ]);
  for (const f of input.forbidden) tokens.set(f.credential, f.token);
  const described = input.openapiPath === undefined ? [] : [descriptionRequest(input.openapiPath)];
  const exchanges = [...requestPlan(input, run), ...described].map((request): Exchange => {
    const url = new URL(request.path, ORIGIN);
    const { status, headers, text } = serialise(
      answer({ method: 'GET', path: url.pathname, query: url.searchParams, authorization: tokens.get(request.credential), origin: ORIGIN, now }, variant),
    );
    return {
      request,
      url: url.href,
      startedAt: now,
      durationMs: 0,
      status,
      contentType: headers['content-type'],
      location: headers.location,
      bodyText: text,
      bodyBytes: Buffer.byteLength(text),
    };
  });
  return { run, startedAt: new Date(now).toISOString(), exchanges };
}

let checks: ReturnType<typeof loadChecks> | undefined;
/** The checks, read once for this process: loadChecks compares them with the catalogue whenever it is called. */
export const checksOnce = () => (checks ??= loadChecks());

/** Each outcome of the judge, with the clauses that had it. */
export function outcomesInProcess(variant: Variant | undefined, input = REFERENCE_INPUT): Record<Outcome, string[]> {
  const outcomes: Record<Outcome, string[]> = { passed: [], failed: [], errored: [], 'not-exercised': [] };
  for (const check of judge(recordInProcess(variant, input), input, checksOnce())) outcomes[check.outcome].push(check.clause);
  return outcomes;
}
