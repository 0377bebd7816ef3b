import { NOT_MODIFIED_REASON, type Answers } from '../harness/judging/answers.ts';
import { field } from '../harness/contracts/fields.ts';
import { isJsonMediaType, type Exchange } from '../harness/transport/exchange.ts';
import { describeReceived, valueAt } from '../harness/judging/received.ts';
import { validators } from '../harness/contracts/validator.ts';
import { schemaRequirement, type ClauseCheck } from '../harness/judging/violations.ts';

// Rules more than one section applies; each check file says which of them it uses and why.

/** Sections 1, 4.1, 4.2: a 200 answer is application/json (parameters such as charset allowed) with a JSON body. */
export function checkJsonAnswer(answers: Answers, check: ClauseCheck, exchange: Exchange): void {
  if (exchange.failure !== undefined) return void check.erroredOn(exchange, exchange.failure);
  if (exchange.status !== 200) return void check.erroredOn(exchange, `answered ${exchange.status}, so there is no 200 answer to judge`);
  check.count();
  if (!isJsonMediaType(exchange.contentType)) check.violate(exchange, '', `content-type ${describeReceived(exchange.contentType)}`, { kind: 'media-type' });
  const read = answers.json(exchange);
  if (read.ok) return;
  if (read.errored) check.erroredOn(exchange, read.reason);
  else check.violate(exchange, '', read.reason, { kind: 'json-body' });
}

/**
 * A server error, a lost connection or a 304 to a request that was not conditional says nothing about
 * authentication: no verdict, rather than a false one.
 */
export function authStatusErrored(exchange: Exchange): string | undefined {
  if (exchange.failure !== undefined) return exchange.failure;
  if (exchange.status! >= 500) return `answered ${exchange.status}, a server error`;
  if (exchange.status === 304) return NOT_MODIFIED_REASON;
  return undefined;
}

/** Section 5: the status an authentication case must be answered with. */
export function checkStatus(check: ClauseCheck, exchange: Exchange, expected: number, hint = ''): void {
  const why = authStatusErrored(exchange);
  if (why !== undefined) return void check.erroredOn(exchange, why);
  check.count();
  if (exchange.status !== expected) check.violate(exchange, '', `status ${exchange.status}`, { kind: 'status', status: expected, hint });
}

/** Sections 2.7 and 7: an error answer is application/json, the error object, with the name section 7 gives. */
export function checkErrorAnswer(answers: Answers, check: ClauseCheck, exchange: Exchange, name: string): void {
  check.count();
  if (!isJsonMediaType(exchange.contentType)) check.violate(exchange, '', `content-type ${describeReceived(exchange.contentType)}`, { kind: 'media-type' });
  const read = answers.json(exchange);
  // JSON deeper than the suite reads is the suite's limit, not a breach of the document: no verdict on it.
  if (!read.ok && read.errored) return void check.erroredOn(exchange, read.reason);
  if (!read.ok) return void check.violate(exchange, '', read.reason, { kind: 'error-object', name });
  const body = read.body.value;
  for (const error of validators().validate('error', body)) {
    const pointer = error.keyword === 'required' ? `${error.instancePath}/${error.params.missingProperty}` : error.instancePath;
    check.violate(exchange, pointer, describeReceived(valueAt(body, pointer), pointer, read.body.literals), {
      kind: 'error-shape',
      ...schemaRequirement(error.keyword, error.params),
    });
  }
  const received = field(body, 'name');
  if (received !== undefined && received !== name) check.violate(exchange, '/name', describeReceived(received), { kind: 'error-name', name });
}
