import { loadChecks } from '../../checks/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCatalogue } from '../../harness/contracts/catalogue.ts';
import { loadConfig, type TargetConfig } from '../../harness/config/config.ts';
import { runsOf, shown } from '../../harness/judging/verdicts.ts';
import { judge } from '../../harness/judging/judge.ts';
import { preflightProblem, runStopped } from '../../harness/recording/preflight.ts';
import { record, type Recording } from '../../harness/recording/recording.ts';
import { createSecrets } from '../../harness/secrets/redact.ts';
import { clauseResults, type ClauseStatus } from '../../reporters/conformance-result.ts';
import { QUICK_TIMEOUTS, reasonOf } from './hostile-servers.ts';
import { referenceTargetEnv, statusesOf, type SuiteRun } from './run-suite.ts';

// A hostile target judged in this process: the real transport against the real loopback server, then the
// steps the judging takes, and the words the report would give. A few black-box runs prove that the
// command, Playwright and the reporter say the same.

/** What conformance.json would say of a run against a target, every clause of the catalogue judged. */
export interface JudgedRun {
  /** Each clause's status. */
  statuses: Record<string, ClauseStatus>;
  /** Each clause's reason, where the report gives one (a failed, errored or unexercised clause). */
  reasons: Record<string, string>;
  /** The run's error, when the preflight stopped it before any clause was judged. */
  error?: string;
  /** Whether the run got as far as judging. */
  completed: boolean;
  /** The answers as received, secrets and all. */
  recording: Recording;
}

interface ClauseResult {
  status: ClauseStatus;
  reason?: string;
}

/** The configuration a run of `runAgainst` reads, from a scratch folder so that no `.env` of the developer's is read. */
export function configFor(baseUrl: string, overrides: Record<string, string> = {}): TargetConfig {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'conformance-self-test-cwd-'));
  try {
    return loadConfig(referenceTargetEnv(baseUrl, { ...QUICK_TIMEOUTS, ...overrides }), scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function judgedRun(results: [string, ClauseResult][], recording: Recording, error?: string): JudgedRun {
  return {
    statuses: Object.fromEntries(results.map(([id, r]) => [id, r.status])),
    reasons: Object.fromEntries(results.filter(([, r]) => r.reason !== undefined).map(([id, r]) => [id, r.reason!])),
    error,
    completed: error === undefined,
    recording,
  };
}

/** A run the preflight stopped: global setup throws, and the report errors every clause with the stop's first line. */
function stoppedRun(problem: string, recording: Recording): JudgedRun {
  const error = runStopped(problem).message;
  const reason = `the run errored: ${error.split('\n')[0]}`;
  return judgedRun(
    loadCatalogue().map((c) => [c.id, { status: 'errored', reason }]),
    recording,
    error,
  );
}

/** Records the target's answers with the suite's transport and judges every clause, as a run with `overrides` would. */
export async function judgeAgainst(baseUrl: string, overrides: Record<string, string> = {}): Promise<JudgedRun> {
  const config = configFor(baseUrl, overrides);
  const { recording } = await record(config);
  const secrets = createSecrets(config);
  const problem = preflightProblem(config, recording);
  if (problem !== undefined) return stoppedRun(shown(problem, secrets), recording);
  const runs = runsOf(loadCatalogue(), judge(recording, config, loadChecks()), secrets);
  const results = clauseResults(loadCatalogue(), runs, { deviations: [], today: '2026-01-01', runStatus: 'passed', runErrors: [] });
  return judgedRun(
    results.map((r) => [r.id, { status: r.status, reason: r.reason }]),
    recording,
  );
}

/** The status and reason of each given clause, as a run's conformance.json gives them or as judged in this process: the two compare equal. */
export function clauseWords(run: SuiteRun | JudgedRun, ids: string[]): Record<string, { status?: string; reason: string }> {
  const statuses = 'statuses' in run ? run.statuses : statusesOf(run.report);
  return Object.fromEntries(ids.map((id) => [id, { status: statuses[id], reason: reasonOf(run, id) }]));
}
