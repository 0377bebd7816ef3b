// A clause's outcome as every report gives it: the facts of a target's run, each clause's outcome in the
// catalogue's order, the evidence kept of it with every secret replaced (the exchanges, cut to a bound, and a
// curl line to repeat each), and the words of its test message.

import type { Clause } from '../contracts/catalogue.ts';
import { digestOf, judgedByThisSuite, type JudgedBy } from '../contracts/run-identity.ts';
import type { TargetConfig } from '../config/config.ts';
import { applicableDeviations, type KnownDeviation } from '../config/deviations.ts';
import type { Product } from '../config/product.ts';
import { visible, type Layout } from '../files/visible.ts';
import { productOfRun } from '../recording/product-version.ts';
import type { Recording } from '../recording/recording.ts';
import { redactValue, type Secrets } from '../secrets/redact.ts';
import type { Exchange } from '../transport/exchange.ts';
import type { Consistency } from './repeat.ts';
import type { Confirmation } from './confirmation-report.ts';
import { kindOf, requirementText, type ClauseCheck, type Outcome } from './violations.ts';
import { requestText, violationText } from './violation-words.ts';

/** The facts of one target's run that every report header needs, and its evidence bundle keeps. */
export interface RunFacts {
  target: { name: string; baseUrl: string; embedded: boolean; reportedVersion?: Record<string, string> };
  startedAt: string;
  requests: { count: number; methods: string[] };
  /** The known deviations that apply to this target: those naming no versions, and those naming its product's. */
  deviations: KnownDeviation[];
  /** Those of the deviations file that name versions the product's version is not in, or is not known to be in. */
  deviationsSetAside?: { clause: string; versions: string }[];
  /** Repeat mode: whether every round was answered alike, and latencies. */
  consistency?: Consistency;
  /** The product under test, as its vendor states it. */
  product?: Product;
  /** Set when the run judged an evidence bundle's exchanges instead of asking a target (a replay). */
  replay?: { bundle: string };
  /** The suite that judged. */
  judgedBy?: JudgedBy;
  /** The profiles the run claimed (CONFORMANCE_CLAIM); undefined when it claimed every one. */
  claim?: string[];
  /** A digest of the target's configuration, secrets left out. */
  configuration?: string;
  /**
   * The run a shard's target was judged in, as the shard's matrix names it (CONFORMANCE_SHARD): this shard's i/n,
   * the run's identity and every target of the run. Kept in the bundle, whose digests cover it, so that a merge holds
   * each target to the run its shard's matrix names.
   */
  shard?: ShardOfRun;
}

/** A shard's place in its run, field for field as its matrix has it (reporters/matrix-result.ts). */
export interface ShardOfRun {
  shard: string;
  run: string;
  runTargets: string[];
}

/**
 * What of a target's configuration shapes its verdicts, secrets left out: which target (the embedded one
 * by name alone, as its port changes from run to run), what the request plan asks with (how many signup
 * tokens, which forbidden credentials), the limits, the deviations and the product.
 */
export function configurationFacts(config: TargetConfig): unknown {
  return {
    target: config.embedded ? { name: config.name, embedded: true } : { name: config.name, baseUrl: config.baseUrl, embedded: false },
    replay: config.replay !== undefined,
    plan: {
      signupTokens: config.signupTokens.length,
      forbidden: config.forbidden.map((f) => [f.credential, f.operations]),
      openapiPath: config.openapiPath ?? null,
      // Only when asked: the digest of every configuration that does not ask stays what it was.
      ...(config.readVersion === undefined ? {} : { versionPath: config.readVersion.path }),
    },
    limits: {
      timeoutMs: config.timeoutMs,
      maxBodyBytes: config.maxBodyBytes,
      repeat: config.repeat,
      concurrency: config.concurrency,
      // Named only when asked for, so that a run without it keeps the digest it always had.
      ...(config.confirm > 0 && { confirm: config.confirm }),
    },
    deviations: config.deviations,
    product: config.product ?? null,
  };
}

export function runFacts(config: TargetConfig, recording: Recording, secrets: Secrets, consistency?: Consistency): RunFacts {
  const { exchanges } = recording;
  const product = productOfRun(config.product, config.readVersion, exchanges);
  const { applied, setAside } = applicableDeviations(config.deviations, product?.version);
  return redactValue(
    {
      target: {
        name: config.name,
        baseUrl: config.baseUrl,
        embedded: config.embedded,
        reportedVersion: exchanges.find((e) => e.versionHeaders)?.versionHeaders,
      },
      startedAt: recording.startedAt,
      requests: { count: exchanges.length, methods: [...new Set(exchanges.map((e) => e.request.method))] },
      deviations: applied,
      ...(setAside.length === 0 ? {} : { deviationsSetAside: setAside.map((d) => ({ clause: d.clause, versions: d.versions! })) }),
      consistency,
      product,
      claim: config.claim,
      judgedBy: judgedByThisSuite(),
      configuration: digestOf(redactValue(configurationFacts(config), (text) => shown(text, secrets))),
    },
    (text) => shown(text, secrets),
  );
}

/** Every clause's run, in the catalogue's order, secrets replaced: what every report says of it. */
export function runsOf(catalogue: Clause[], checks: ClauseCheck[], secrets: Secrets): ClauseRun[] {
  const byClause = new Map(checks.map((c) => [c.clause, c]));
  return catalogue.flatMap((clause) => {
    const check = byClause.get(clause.id);
    if (!check) return [];
    return [clauseRunOf(clause, { outcome: check.outcome, evidence: clauseEvidence(check, secrets), crash: check.crash && shown(check.crash, secrets) })];
  });
}

/** The judge's word on one clause, in words: what each report says of it. */
export interface ClauseRun {
  clause: string;
  outcome: Outcome;
  evidence?: ClauseEvidence;
  /** Why: the violations or the failure in words, or the input a clause not exercised needs. */
  reason?: string;
  /** Set when its failure was confirmed (CONFORMANCE_CONFIRM): how often it failed, and the answers that differed. */
  confirmation?: Confirmation;
}

/** A clause's run from the judge's verdict, with the words its outcome is told in. Verifying a bundle builds its report from these, as a run does. */
export function clauseRunOf(clause: Clause, verdict: { outcome: Outcome; evidence?: ClauseEvidence; crash?: string }): ClauseRun {
  const { outcome, evidence } = verdict;
  const reason =
    outcome === 'not-exercised'
      ? `needs ${clause.needs ?? 'input the target did not provide'}`
      : outcome === 'failed' && evidence
        ? describeViolations(clause, evidence)
        : outcome === 'errored' && evidence
          ? describeErrored(clause, evidence, verdict.crash)
          : undefined;
  return { clause: clause.id, outcome, evidence, reason };
}

// The evidence of a clause, secrets replaced.

/** Bodies in evidence are cut to this many characters; received values to RECEIVED_CHARS. */
export const BODY_EXCERPT_CHARS = 2000;
export const RECEIVED_CHARS = 200;

function shellQuote(text: string): string {
  return `"${text.replace(/["\\`$]/g, '\\$&')}"`;
}

// The markers that stand for secrets, as redact.ts writes them: in a curl line, shell variables.
const MARKER = /\\\$(TOKEN|FORBIDDEN_TOKEN(?:_[A-Z0-9]+)*|SIGNUP_TOKEN_[0-9]+)(?![A-Za-z0-9_])/g;

/** A URL in double quotes for the shell: everything as written, but each secret's marker a variable the shell expands. */
const shellUrl = (url: string) => shellQuote(url).replace(MARKER, '$${$1}');

/** A curl line that repeats the request, secrets left as shell variables. */
export function curlLine(exchange: Exchange, secrets: Secrets): string {
  const { credential } = exchange.request;
  const header = credential === 'invalid' ? 'an-invalid-token' : credential === 'none' ? undefined : secrets.placeholderOf(credential);
  // The placeholder is a shell variable: double quotes let the shell expand it.
  const auth = header === undefined ? '' : ` -H "authorization: ${header}"`;
  return `curl -sS -i${auth} ${shellUrl(secrets.redact(exchange.url))}`;
}

/** A text of the target's as evidence shows it: hidden characters escaped (so that no escape can spell a secret after redaction), then every secret replaced. */
export function shown(text: string, secrets: Secrets, layout: Layout = 'line'): string {
  return secrets.redact(visible(text, layout));
}

// A cut that would split a marker or an escape ends before it.
const OPEN_AT_CUT = /(?:\$[A-Z0-9_]*|\\(?:u\{?[0-9a-f]{0,5})?)$/;

/** Redacts first, then cuts: a secret across the cut cannot leave a readable part behind. */
export function cut(text: string, secrets: Secrets, chars: number, layout: Layout = 'line'): string {
  const safe = shown(text, secrets, layout);
  if (safe.length <= chars) return safe;
  const head = safe.slice(0, chars);
  const open = /[A-Za-z0-9_{}]/.test(safe[chars]) ? (OPEN_AT_CUT.exec(head)?.[0].length ?? 0) : 0;
  return `${head.slice(0, chars - open)}… (${safe.length} characters in all)`;
}

export interface ExchangeEvidence {
  method: string;
  path: string;
  credential: string;
  status?: number;
  contentType?: string;
  durationMs: number;
  bodyExcerpt?: string;
  curl: string;
}

/** How much of a body is redacted before its excerpt is cut; a secret across this edge is caught by the redactor's edge rule. */
const BODY_REDACTED_CHARS = 64 * 1024;

// One exchange is quoted by many violations: its evidence is made once per set of secrets.
const madeFor = new WeakMap<Secrets, WeakMap<Exchange, ExchangeEvidence>>();

export function exchangeEvidence(exchange: Exchange, secrets: Secrets): ExchangeEvidence {
  let made = madeFor.get(secrets);
  if (!made) madeFor.set(secrets, (made = new WeakMap()));
  let evidence = made.get(exchange);
  if (!evidence) made.set(exchange, (evidence = makeExchangeEvidence(exchange, secrets)));
  return evidence;
}

function makeExchangeEvidence(exchange: Exchange, secrets: Secrets): ExchangeEvidence {
  return {
    method: exchange.request.method,
    path: shown(exchange.request.path, secrets),
    credential: exchange.request.credential,
    status: exchange.status,
    contentType: exchange.contentType === undefined ? undefined : cut(exchange.contentType, secrets, RECEIVED_CHARS),
    durationMs: exchange.durationMs,
    bodyExcerpt: exchange.bodyText === undefined ? undefined : cut(exchange.bodyText.slice(0, BODY_REDACTED_CHARS), secrets, BODY_EXCERPT_CHARS, 'block'),
    curl: curlLine(exchange, secrets),
  };
}

/** One violation as the report gives it: what the document requires in words, and its kind (absent in reports made before kinds were kept). */
export interface ViolationEvidence {
  pointer: string;
  received: string;
  required: string;
  kind?: string;
  request: ExchangeEvidence;
}

/** The evidence of one clause, with every secret replaced: attached to its test and copied into conformance.json. */
export function clauseEvidence(check: ClauseCheck, secrets: Secrets) {
  return {
    clause: check.clause,
    outcome: check.outcome,
    instances: check.instances,
    violations: check.violations.map(
      (v): ViolationEvidence => ({
        pointer: shown(v.pointer, secrets),
        received: cut(v.received, secrets, RECEIVED_CHARS),
        required: shown(requirementText(v.requirement), secrets),
        kind: kindOf(v.requirement),
        request: exchangeEvidence(v.exchange, secrets),
      }),
    ),
    violationsCut: check.violationsCut,
    // conformance.json's name for the answers an errored clause could not judge (its schema's field, kept as it is).
    unevaluable: check.erroredAnswers.map((u) => ({ reason: cut(u.reason, secrets, 1000), request: exchangeEvidence(u.exchange, secrets) })),
    observations: check.observations === undefined ? undefined : redactValue(check.observations, (text) => shown(text, secrets)),
  };
}

export type ClauseEvidence = ReturnType<typeof clauseEvidence>;

// A clause's failure or error in the words of its test message.

/** How many violations a failure message spells out; the report holds the rest. */
const SHOWN = 5;

function header(clause: Clause): string {
  return `clause ${clause.id} (section ${clause.section}, ${clause.level}): ${clause.title}`;
}

/** The one place where a clause's violations become words: received, required, how to reproduce. */
export function describeViolations(clause: Clause, evidence: ClauseEvidence): string {
  const count = evidence.violations.length + evidence.violationsCut;
  // No matcher's name: the reports quote these words to people who never saw the test (JUnit's <failure> says it is one).
  const lines = [header(clause), `${count} violation(s) in ${evidence.instances} checked:`];
  for (const v of evidence.violations.slice(0, SHOWN)) {
    lines.push(`  ${requestText(v.request)}`);
    lines.push(`    ${violationText(v)}`);
    lines.push(`    reproduce: ${v.request.curl}`);
  }
  const rest = count - Math.min(SHOWN, evidence.violations.length);
  if (rest > 0) lines.push(`  … and ${rest} more (see conformance.json)`);
  return lines.join('\n');
}

/** An errored clause in the words of its test message: what broke, and each answer it could not judge. */
export function describeErrored(clause: Clause, evidence: ClauseEvidence, crash?: string): string {
  const lines = [`errored: ${header(clause)}`];
  if (crash !== undefined) lines.push(`  ${crash}`);
  for (const u of evidence.unevaluable.slice(0, SHOWN)) {
    lines.push(`  ${requestText(u.request)}: ${u.reason}`);
    lines.push(`    reproduce: ${u.request.curl}`);
  }
  return lines.join('\n');
}
