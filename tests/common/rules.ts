import { isJsonMediaType, type Exchange } from '../../harness/exchange.ts';
import { describeReceived } from '../../harness/schema-findings.ts';
import { validators } from '../../harness/validator.ts';
import type { ClauseCheck } from '../../harness/verdict.ts';

/** Sections 1, 4.1, 4.2: a 200 answer is application/json (parameters such as charset allowed) and parses. */
export function checkJsonAnswer(check: ClauseCheck, exchange: Exchange): void {
  if (exchange.failure !== undefined) return void check.cannotEvaluate(exchange, exchange.failure);
  if (exchange.status !== 200) return void check.cannotEvaluate(exchange, `answered ${exchange.status}, so there is no 200 answer to judge`);
  check.count();
  if (!isJsonMediaType(exchange.contentType)) check.violate(exchange, '', `content-type ${describeReceived(exchange.contentType)}`, 'content-type application/json');
  if (exchange.jsonError !== undefined) check.violate(exchange, '', exchange.jsonError, 'a JSON body');
}

/** A server error or a lost connection says nothing about authentication: no verdict, rather than a false one. */
export function authStatusUnjudgeable(exchange: Exchange): string | undefined {
  if (exchange.failure !== undefined) return exchange.failure;
  if (exchange.status! >= 500) return `answered ${exchange.status}, a server error`;
  return undefined;
}

/** Section 5: the status an authentication case must be answered with. */
export function checkStatus(check: ClauseCheck, exchange: Exchange, expected: number): void {
  const unjudgeable = authStatusUnjudgeable(exchange);
  if (unjudgeable !== undefined) return void check.cannotEvaluate(exchange, unjudgeable);
  check.count();
  if (exchange.status !== expected) check.violate(exchange, '', `status ${exchange.status}`, `status ${expected}`);
}

/** Sections 2.7 and 7: an error answer is application/json, the error object, with the name section 7 gives. */
export function checkErrorAnswer(check: ClauseCheck, exchange: Exchange, name: string): void {
  check.count();
  if (!isJsonMediaType(exchange.contentType)) check.violate(exchange, '', `content-type ${describeReceived(exchange.contentType)}`, 'content-type application/json');
  if (exchange.jsonError !== undefined) return void check.violate(exchange, '', exchange.jsonError, `a JSON error object named ${name}`);
  for (const error of validators().validate('error', exchange.json)) {
    const pointer = error.keyword === 'required' ? `${error.instancePath}/${error.params.missingProperty}` : error.instancePath;
    check.violate(exchange, pointer, describeReceived(pointer === '' ? exchange.json : (exchange.json as Record<string, unknown>)[pointer.slice(1)]), `the error object of 2.7 (${error.message})`);
  }
  const received = (exchange.json as { name?: unknown } | null)?.name;
  if (received !== undefined && received !== name) check.violate(exchange, '/name', describeReceived(received), JSON.stringify(name));
}
