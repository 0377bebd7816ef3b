// A confirmed failure as every report gives it: how many times the clause was judged, how many of those failed,
// and the answers that differed, side by side, with every secret replaced. A clause that passed on any of them is
// flaky: no verdict for it (errored), never a pass and never a failure.

import { createHash } from 'node:crypto';
import type { Clause } from '../contracts/catalogue.ts';
import type { Recording } from '../recording/recording.ts';
import { keyOf } from '../recording/recording.ts';
import type { Secrets } from '../secrets/redact.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Confirmation, ConfirmedAnswer } from './confirmation-report.ts';
import type { JudgeInput } from './answers.ts';
import { confirmFailures, type ConfirmationRound, type ConfirmedClause } from './confirmation.ts';
import type { Check } from './judge.ts';
import { cut, describeViolations, runsOf, shown, type ClauseRun } from './verdicts.ts';
import type { ClauseCheck } from './violations.ts';

/** How much of each differing body the report quotes. */
const EXCERPT_CHARS = 200;

/** One answer as the report shows it beside the others: its status, or why there was none, and its body's digest and first characters. */
function answerSeen(exchange: Exchange, secrets: Secrets): ConfirmedAnswer {
  const body = exchange.bodyText === undefined ? undefined : secrets.redact(exchange.bodyText);
  return {
    ...(exchange.status !== undefined && { status: exchange.status }),
    ...(exchange.failure !== undefined && { failure: cut(exchange.failure, secrets, EXCERPT_CHARS) }),
    bodyBytes: exchange.bodyBytes,
    // The digest of the body as the bundle's reader sees it, secrets as placeholders: a digest of a secret is no secret's place.
    ...(body !== undefined && { bodySha256: createHash('sha256').update(body).digest('hex') }),
    ...(exchange.bodyText !== undefined && { bodyStart: cut(exchange.bodyText.slice(0, 64 * 1024), secrets, EXCERPT_CHARS, 'block') }),
  };
}

const sameAnswer = (a: ConfirmedAnswer, b: ConfirmedAnswer) => a.status === b.status && a.failure === b.failure && a.bodySha256 === b.bodySha256;

/** The answers to a clause's requests on every judging, side by side: those that differed, or all when none did. */
function answersSideBySide(confirmed: ConfirmedClause, recording: Recording, rounds: ConfirmationRound[], secrets: Secrets): Confirmation['answers'] {
  const answerTo = (exchanges: Exchange[], key: string) => exchanges.find((e) => keyOf(e.request) === key);
  const rows = confirmed.keys.flatMap((key) => {
    const first = answerTo(recording.exchanges, key);
    if (first === undefined) return [];
    const all = [first, ...rounds.map((round) => answerTo(round, key) ?? first)].map((e) => answerSeen(e, secrets));
    const { method, path, credential } = first.request;
    return [{ method, path: shown(path, secrets), credential, answers: all }];
  });
  const differing = rows.filter((row) => row.answers.some((a) => !sameAnswer(a, row.answers[0])));
  return differing.length > 0 ? differing : rows;
}

/** What the confirmations of one failed clause found. */
export function confirmationOf(confirmed: ConfirmedClause, recording: Recording, rounds: ConfirmationRound[], secrets: Secrets): Confirmation {
  const outcomes = confirmed.judged.map((c) => c.outcome);
  return {
    runs: outcomes.length,
    failed: outcomes.filter((o) => o === 'failed').length,
    passed: outcomes.filter((o) => o === 'passed').length,
    outcomes,
    answers: answersSideBySide(confirmed, recording, rounds, secrets),
  };
}

/**
 * A failed clause's run once confirmed: still failed when no confirmation passed; flaky when one did, which is no
 * verdict (errored), the reason saying how often it failed and the first failure's words to reproduce it.
 */
export function confirmedRun(clause: Clause, run: ClauseRun, confirmation: Confirmation): ClauseRun {
  if (confirmation.passed === 0) return { ...run, confirmation };
  const words = run.evidence ? `\n${describeViolations(clause, run.evidence)}` : '';
  const reason = `flaky: clause ${clause.id} failed ${confirmation.failed} of the ${confirmation.runs} times its requests were sent, and passed ${confirmation.passed}: no verdict, as the target answers the same requests differently${words}`;
  return { ...run, outcome: 'errored', reason, confirmation };
}

/** Each clause's run with the confirmations of its failure, where it had any. */
export function withConfirmations(catalogue: Clause[], runs: ClauseRun[], confirmations: Map<string, Confirmation>): ClauseRun[] {
  const clauses = new Map(catalogue.map((c) => [c.id, c]));
  return runs.map((run) => {
    const confirmation = confirmations.get(run.clause);
    return confirmation && run.outcome === 'failed' ? confirmedRun(clauses.get(run.clause)!, run, confirmation) : run;
  });
}

/**
 * Every clause's run, each failure confirmed on the rounds (none without CONFORMANCE_CONFIRM): the run's and
 * verify's one way from a recording and its confirmations to the clauses' runs. `problem` says why the rounds are
 * no confirmations of these failures (a bundle changed after its run); the first judging then stands alone.
 */
export function confirmedRuns(
  catalogue: Clause[],
  recording: Recording,
  input: JudgeInput,
  checks: Check[],
  first: ClauseCheck[],
  rounds: ConfirmationRound[],
  secrets: Secrets,
): { runs: ClauseRun[]; problem?: string } {
  const runs = runsOf(catalogue, first, secrets);
  const { confirmed, problem } = confirmFailures(recording, input, checks, first, rounds);
  const confirmations = new Map(confirmed.map((c) => [c.clause, confirmationOf(c, recording, rounds, secrets)]));
  return { runs: withConfirmations(catalogue, runs, confirmations), problem };
}
