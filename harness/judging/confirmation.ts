// Confirming a failure (CONFORMANCE_CONFIRM, --confirm N): the requests a failed clause was judged from are sent N
// more times, and the clause is judged again, by the same pure judge, on each new set of answers. Only requests are
// repeated; no assertion is retried or loosened. A pure function of the first recording and the rounds, so that
// verifying a bundle judges its confirmations again exactly as the run did.

import type { Exchange, ExchangeRequest } from '../transport/exchange.ts';
import { keyOf, type Recording } from '../recording/recording.ts';
import { Answers, type JudgeInput } from './answers.ts';
import { judgeClause, type Check } from './judge.ts';
import type { ClauseCheck } from './violations.ts';

/** One confirmation: the answers to the requests sent again, one each, in the first recording's order. */
export type ConfirmationRound = Exchange[];

/** A failed clause, the requests it was judged from (by key), and its check on each confirmation round. */
export interface ConfirmedClause {
  clause: string;
  keys: string[];
  /** Its check on the first recording, then on each round. */
  judged: ClauseCheck[];
}

/** The requests a clause was judged from: its check run again on the answers, every one it asked for. */
function requestsOf(answers: Answers, check: Check): string[] {
  answers.asked.clear();
  judgeClause(answers, check);
  return [...answers.asked];
}

/**
 * The clauses that failed on the first recording, each with the requests it was judged from. One reading of the
 * answers for all of them: each body is read and each contract applied once, however many clauses failed.
 */
export function failedClauses(recording: Recording, input: JudgeInput, checks: Check[], first: ClauseCheck[]): { check: Check; keys: string[] }[] {
  const failed = new Set(first.filter((c) => c.outcome === 'failed').map((c) => c.clause));
  const answers = new Answers(recording, input);
  return checks.filter((c) => failed.has(c.clause)).map((check) => ({ check, keys: requestsOf(answers, check) }));
}

/** The requests to send again: every one a failed clause was judged from, once each, in the first recording's order. */
export function requestsToConfirm(recording: Recording, failed: { keys: string[] }[]): ExchangeRequest[] {
  const keys = new Set(failed.flatMap((f) => f.keys));
  return recording.exchanges.filter((e) => keys.has(keyOf(e.request))).map((e) => e.request);
}

/** The first recording with each request of the round answered as the round answered it. */
export function roundRecording(recording: Recording, round: ConfirmationRound): Recording {
  const again = new Map(round.map((e) => [keyOf(e.request), e]));
  return { ...recording, exchanges: recording.exchanges.map((e) => again.get(keyOf(e.request)) ?? e) };
}

/** Why the rounds are not confirmations of these failures: a round that sent other requests than the failures were judged from. */
function roundsProblem(expected: ExchangeRequest[], rounds: ConfirmationRound[]): string | undefined {
  const want = expected.map(keyOf).join('\n');
  const at = rounds.findIndex((round) => round.map((e) => keyOf(e.request)).join('\n') !== want);
  if (at === -1) return undefined;
  return `confirmation ${at + 1} sent other requests than the ${expected.length} the failed clauses were judged from`;
}

/**
 * Each clause that failed on the first recording, judged again on every round; or why the rounds cannot be
 * judged as confirmations of these failures (a bundle changed after its run).
 */
export function confirmFailures(
  recording: Recording,
  input: JudgeInput,
  checks: Check[],
  first: ClauseCheck[],
  rounds: ConfirmationRound[],
): { confirmed: ConfirmedClause[]; problem?: string } {
  if (rounds.length === 0) return { confirmed: [] };
  const failed = failedClauses(recording, input, checks, first);
  const problem = roundsProblem(requestsToConfirm(recording, failed), rounds);
  if (problem !== undefined) return { confirmed: [], problem };
  const firstOf = new Map(first.map((c) => [c.clause, c]));
  // Each round is read once, whatever the number of clauses judged on it.
  const answers = rounds.map((round) => new Answers(roundRecording(recording, round), input));
  const confirmed = failed.map(({ check, keys }) => ({
    clause: check.clause,
    keys,
    judged: [firstOf.get(check.clause)!, ...answers.map((a) => judgeClause(a, check))],
  }));
  return { confirmed };
}
