import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { REFERENCE_FIXTURES } from '../../reference-server/fixtures.ts';
import { startReferenceServer } from '../../reference-server/server.ts';
import { FAULTS } from '../../reference-server/variants/index.ts';
import type { ConformanceReport } from '../../reporters/conformance-result.ts';
import type { MatrixReport } from '../../reporters/matrix-result.ts';
import { makeThrowawayPki, type ThrowawayPki } from '../support/certificates.ts';
import { echoingSecrets, spellings } from '../support/echoing-target.ts';
import { answeringWith, htmlLoginPage, hugeBody, neverAnswers, serveHttp, writeAnswer, type LoopbackServer } from '../support/hostile-servers.ts';
import { canary, contentsUnder, leaks, type Canary } from '../support/leaks.ts';
import { runSuite, runSuiteProcess, statusesOf, type SuiteRun } from '../support/run-suite.ts';
import { httpsTarget } from '../support/staging-servers.ts';
import { brokenContentCodings, rateLimiting } from '../support/transport-servers.ts';

// Twenty-six deployments in one run, as a vendor checks its tenants: most faithful, some failing one clause on one
// version, and the hostile kinds: some that never answer, whose answers never end, that quote their tokens back,
// whose content codings are broken, that rate-limit, that answer 404, a login page or 500 to everything, one
// whose authority only NODE_EXTRA_CA_CERTS names, one whose certificate has expired. Each keeps its own verdict,
// report and secrets; the run ends within its bound. The fleet is judged once in this process, every clause (what
// the engine decides), and once by the command, the clauses a --grep selects: Playwright carries every tenant in one
// test per clause, and a failing test restarts its worker, so a few clauses keep that run to seconds.

const EXPIRED = FAULTS.find((f) => f.name === 'expired-token-enabled')!;
const FAITHFUL = 4;
/** Every tenant of the fleet: the faithful, the failing, the hostile kinds and the echoing ones. */
const TENANTS = 26;
const FAILING = 5;
const HOSTILE = 3;
/** The deadline of a tenant that holds its answer open: short, and long enough for a broken body to be read on a busy machine. */
const QUICK_MS = 4000;
/** The clauses the command's run judges: the one the failing tenants break, and two that the hostile kinds error. */
const SELECTED = ['signup-token.state.expired-not-enabled', 'projects.response.json', 'auth.projects.missing-header'];

/** An echoing tenant's own tokens, each a canary: found anywhere in any written form, it leaked. */
function echoTokens(n: number): { admin: Canary; forbidden: Canary; signup: Canary[] } {
  return {
    admin: canary(`ECHO${n}_ADMIN`, `*:*.echo-${n}-admin/"`),
    forbidden: canary(`ECHO${n}_FORBIDDEN`, `echo-${n}-viewer+`),
    signup: [1, 2].map((s) => canary(`ECHO${n}_SIGNUP #${s}`, `echo-${n}-signup~${s}.`)),
  };
}

/**
 * A fleet with targets that error every clause fails every test, and each failed test restarts Playwright's
 * worker: on a busy machine (load 15 on two cores) that alone takes a while. The bound this file holds the runs
 * to is each target's own deadline, not the wall clock.
 */
const FLEET_RUN_MS = 300_000;
test.describe.configure({ mode: 'default', timeout: FLEET_RUN_MS + 60_000 });

const tokens = [1, 2, 3, 4].map(echoTokens);
const everyToken = tokens.flatMap((t) => [t.admin, t.forbidden, ...t.signup]);
let reference: Awaited<ReturnType<typeof startReferenceServer>>;
let echoing: LoopbackServer[];
let pki: ThrowawayPki;
const servers: LoopbackServer[] = [];
let dir: string;
/** The fleet judged in this process, every clause; and by the command, the clauses of SELECTED, Playwright's files in `tmp`. */
let judged: SuiteRun;
let command: SuiteRun;
let tmp: string;

/** The entries of the fleet file, and the variables its tokens are read from. */
async function fleetOf(): Promise<{ lines: string[]; env: Record<string, string> }> {
  const [hanging, huge, codings, rateLimited, notFound, loginPage, serverError] = await Promise.all([
    neverAnswers(),
    hugeBody({ declareLength: false }),
    brokenContentCodings(),
    rateLimiting(),
    answeringWith(404),
    htmlLoginPage(),
    answeringWith(500),
  ]);
  echoing = await Promise.all(
    tokens.slice(0, 3).map((t) => echoingSecrets({ admin: t.admin.value, forbidden: t.forbidden.value, signup: t.signup.map((c) => c.value) })),
  );
  // A backend shared with echo-1 that quotes echo-1's tokens, in their spellings, to whoever asks.
  const leaky = await serveHttp((_req, res) => {
    const quoted = [tokens[0].admin, tokens[0].forbidden, ...tokens[0].signup].flatMap((c) => spellings(c.value));
    const body = { version: 1, projects: quoted.map((q, i) => ({ id: `p${i}`, name: q, description: q, health: 'x' })) };
    writeAnswer(res, 200, { 'content-type': 'application/json' }, Buffer.from(JSON.stringify(body)));
  });
  const [privateCa, certificateExpired] = await Promise.all([httpsTarget(pki.server), httpsTarget(pki.expired)]);
  servers.push(hanging, huge, codings, rateLimited, notFound, loginPage, serverError, leaky, privateCa, certificateExpired, ...echoing);
  const entry = (name: string, baseUrl: string, extra = '') => `  - { name: ${name}, baseUrl: "${baseUrl}"${extra} }`;
  const unleash = (version: string) => `, product: { name: Unleash, version: "${version}" }`;
  // Only the kinds that hold a request open have a short deadline: on a busy machine a faithful answer may take
  // longer than it. The huge body keeps the default one, so that its body bound, not a busy machine, stops it.
  const quick = `, timeoutMs: ${QUICK_MS}`;
  const lines = [
    ...Array.from({ length: FAITHFUL }, (_, i) => entry(`faithful-${i + 1}`, reference.url, unleash('8.2.0'))),
    ...Array.from({ length: FAILING }, (_, i) => entry(`expired-${i + 1}`, `${reference.url}/variants/${EXPIRED.name}`, unleash('8.1.0'))),
    ...Array.from({ length: HOSTILE }, (_, i) => entry(`hanging-${i + 1}`, hanging.url, quick)),
    ...Array.from({ length: HOSTILE }, (_, i) => entry(`huge-${i + 1}`, huge.url)),
    ...echoing.map((server, i) =>
      entry(
        `echo-${i + 1}`,
        server.url,
        `, adminTokenFrom: CONFORMANCE_TOKEN_ECHO${i + 1}_ADMIN, forbiddenTokenFrom: CONFORMANCE_TOKEN_ECHO${i + 1}_FORBIDDEN, signupTokensFrom: CONFORMANCE_TOKEN_ECHO${i + 1}_SIGNUP`,
      ),
    ),
    // A tenant on a backend that quotes echo-1's tokens, which it was never sent, with tokens of its own.
    entry(
      'cross-1',
      leaky.url,
      ', adminTokenFrom: CONFORMANCE_TOKEN_ECHO4_ADMIN, forbiddenTokenFrom: CONFORMANCE_TOKEN_ECHO4_FORBIDDEN, signupTokensFrom: CONFORMANCE_TOKEN_ECHO4_SIGNUP',
    ),
    entry('codings-1', codings.url, quick),
    entry('rate-limited-1', rateLimited.url),
    entry('not-found-1', notFound.url),
    entry('login-page-1', loginPage.url),
    entry('server-error-1', serverError.url),
    // No caFile: the authority is trusted through NODE_EXTRA_CA_CERTS, which Node reads as its process starts.
    entry('private-ca-1', privateCa.url),
    entry('certificate-expired-1', certificateExpired.url),
  ];
  const env: Record<string, string> = {
    CONFORMANCE_TOKEN_REF_ADMIN: REFERENCE_FIXTURES.adminToken,
    CONFORMANCE_TOKEN_REF_FORBIDDEN: REFERENCE_FIXTURES.forbiddenToken,
    CONFORMANCE_TOKEN_REF_SIGNUP: REFERENCE_FIXTURES.signupTokens.join(','),
  };
  for (const [i, t] of tokens.entries()) {
    env[`CONFORMANCE_TOKEN_ECHO${i + 1}_ADMIN`] = t.admin.value;
    env[`CONFORMANCE_TOKEN_ECHO${i + 1}_FORBIDDEN`] = t.forbidden.value;
    env[`CONFORMANCE_TOKEN_ECHO${i + 1}_SIGNUP`] = t.signup.map((c) => c.value).join(',');
  }
  return { lines, env };
}

/** Playwright's --grep for the tests of these clauses: each test's title ends in its clause id. */
const grepOf = (ids: string[]) => ['--grep', ids.map((id) => `\\[${id.replace(/[.]/g, '\\.')}\\]`).join('|')];

test.beforeAll(async () => {
  pki = await makeThrowawayPki();
  reference = await startReferenceServer(0, [EXPIRED]);
  dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-fleet-run-'));
  tmp = mkdtempSync(path.join(os.tmpdir(), 'conformance-fleet-run-tmp-'));
  const { lines, env } = await fleetOf();
  const fleet = path.join(dir, 'fleet.yaml');
  writeFileSync(
    fleet,
    `defaults: { adminTokenFrom: CONFORMANCE_TOKEN_REF_ADMIN, forbiddenTokenFrom: CONFORMANCE_TOKEN_REF_FORBIDDEN, signupTokensFrom: CONFORMANCE_TOKEN_REF_SIGNUP, maxBodyBytes: 1048576 }\ntargets:\n${lines.join('\n')}\n`,
  );
  const settings = { ...env, CONFORMANCE_TARGETS: fleet, CONFORMANCE_RUN_TIMEOUT_MS: String(FLEET_RUN_MS) };
  [judged, command] = await Promise.all([
    runSuite(settings),
    runSuiteProcess({ ...settings, NODE_EXTRA_CA_CERTS: pki.caFile, TMPDIR: tmp }, grepOf(SELECTED), FLEET_RUN_MS + 30_000),
  ]);
});

test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await new Promise<void>((resolve) => reference?.server.close(() => resolve()));
  pki?.remove();
  for (const folder of [dir, tmp, judged?.reportDir, command?.reportDir]) if (folder) rmSync(folder, { recursive: true, force: true });
});

const verdictsOf = (run: SuiteRun) => Object.fromEntries((run.report as unknown as MatrixReport).targets.map((t) => [t.name, t.verdict]));
const reportOf = (run: SuiteRun, name: string) =>
  JSON.parse(readFileSync(path.join(run.reportDir, 'targets', name, 'conformance.json'), 'utf8')) as ConformanceReport;
const named = (verdicts: Record<string, string>, prefix: string) => Object.entries(verdicts).filter(([n]) => n.startsWith(prefix));

test('twenty-six tenants in one run: each its own verdict and report, the failing ones exit code 1, shared failures grouped by clause and product version', () => {
  expect(judged.exitCode, judged.stdout + judged.stderr).toBe(1);
  const matrix = judged.report as unknown as MatrixReport;
  const verdicts = verdictsOf(judged);
  expect(matrix.targets).toHaveLength(TENANTS);
  expect(named(verdicts, 'faithful-').filter(([, v]) => v !== 'pass')).toEqual([]);
  expect(named(verdicts, 'expired-').filter(([, v]) => v !== 'fail')).toEqual([]);
  // The five tenants on 8.1.0 that enable an expired token are one line.
  const expired = matrix.signatures!.find((s) => s.clause === 'signup-token.state.expired-not-enabled' && s.product === 'Unleash 8.1.0');
  expect(expired?.targets).toEqual(['expired-1', 'expired-2', 'expired-3', 'expired-4', 'expired-5']);
  expect(matrix.signatures!.filter((s) => s.targets.some((t) => t.startsWith('faithful-')))).toEqual([]);
  for (const t of matrix.targets) expect(existsSync(path.join(judged.reportDir, path.dirname(t.report), 'conformance.json')), t.name).toBe(true);
  // A passing tenant has no line of its own in the summary; one that does not pass has one.
  expect(judged.stdout).not.toMatch(/PASS {2}faithful-/);
  expect(judged.stdout).toMatch(/FAIL {2}expired-3 \(/);
});

test('each hostile tenant has no verdict, held to its own deadline and body bound, in the line that names what it did; none holds another past its bounds', () => {
  const verdicts = verdictsOf(judged);
  const hostile = [
    'hanging-1',
    'hanging-2',
    'hanging-3',
    'huge-1',
    'huge-2',
    'huge-3',
    'codings-1',
    'rate-limited-1',
    'not-found-1',
    'login-page-1',
    'server-error-1',
  ];
  for (const name of hostile) expect(verdicts[name], name).toBe('error');
  const said = (name: string) => JSON.stringify(reportOf(judged, name));
  // Each was stopped by its own bounds, which its report names: QUICK_MS a request, 1 MiB a body.
  expect(said('hanging-1')).toContain(`no answer within ${QUICK_MS} ms (CONFORMANCE_TIMEOUT_MS)`);
  expect(said('huge-1')).toContain('the body is larger than 1048576 bytes (CONFORMANCE_MAX_BODY_BYTES); reading stopped');
  expect(said('codings-1')).toContain(`the body was still arriving ${QUICK_MS} ms after the request (CONFORMANCE_TIMEOUT_MS); reading stopped`);
  expect(said('codings-1')).toContain('the body is labelled Content-Encoding: gzip but cannot be decoded as gzip');
  expect(said('rate-limited-1')).toContain('answered 429 Too Many Requests 4 times, though the suite waited before each retry');
  expect(said('not-found-1')).toContain('every request with the admin token was answered 404');
  expect(said('login-page-1')).toContain('every request was answered 200 text/html; charset=utf-8, no JSON, those without a token too');
  expect(said('server-error-1')).toContain('answered 500, a server error');
  // None failed a clause for what it did: a hostile answer is no violation of the document.
  for (const name of hostile) expect(reportOf(judged, name).summary.failed, name).toBe(0);
});

test("no tenant's token is in any file or line of the run, each tenant is asked with its own, and one quoted by another's backend stands as another target's", () => {
  for (const name of ['echo-1', 'echo-2', 'echo-3', 'cross-1']) expect(verdictsOf(judged)[name], name).not.toBe('pass');
  const found = leaks([['stdout', judged.stdout], ['stderr', judged.stderr], ...contentsUnder(judged.reportDir)], everyToken);
  expect(found).toEqual([]);
  // Each echoing tenant was asked with its own token, and no other's.
  for (const [i, server] of echoing.entries())
    expect(new Set(server.seen.map((r) => r.authorization).filter(Boolean))).not.toContain(tokens[(i + 1) % 3].admin.value);
  // The shared backend quoted echo-1's tokens to cross-1, which was never sent them: they stand as another target's.
  expect(readFileSync(path.join(judged.reportDir, 'targets', 'cross-1', 'conformance.json'), 'utf8')).toContain('$OTHER_TARGET_TOKEN_');
});

test("the command carries the fleet: one test per clause selected for all its tenants, each tenant's outcomes those judged in process, no token in its lines or any file it or Playwright wrote", () => {
  // A few clauses of the catalogue, one of them failed: a violation wins over a partial run.
  expect(command.exitCode, command.stdout + command.stderr).toBe(1);
  // One test per clause carries every tenant: not a worker, nor a test, per tenant; its line says how many gave its status.
  expect(command.stdout).toContain(`\n${SELECTED.length} clauses judged:\n`);
  expect(command.stdout).toMatch(/^ {2}✘ failed +signup-token\.state\.expired-not-enabled \(\d+ of 26 targets\) /m);
  const matrix = command.report as unknown as MatrixReport;
  expect(matrix.targets).toHaveLength(TENANTS);
  const selected = (statuses: Record<string, string>) => Object.fromEntries(SELECTED.map((id) => [id, statuses[id]]));
  for (const { name } of matrix.targets) {
    if (name === 'private-ca-1' || name === 'certificate-expired-1') continue;
    // A tenant held to 1.5 s a request may have any answer come late on a busy machine, in either run: only
    // its lack of a verdict is the same for certain.
    if (/^(hanging|huge|codings)-/.test(name)) expect([reportOf(command, name).verdict, reportOf(judged, name).verdict], name).toEqual(['error', 'error']);
    else expect(selected(statusesOf(reportOf(command, name))), name).toEqual(selected(statusesOf(reportOf(judged, name))));
  }
  expect(verdictsOf(command)['expired-3']).toBe('fail');
  expect(command.stdout).toMatch(/FAIL {2}expired-3 \(/);
  const found = leaks([['stdout', command.stdout], ['stderr', command.stderr], ...contentsUnder(command.reportDir), ...contentsUnder(tmp)], everyToken);
  expect(found).toEqual([]);
});

test('in a run of the command, NODE_EXTRA_CA_CERTS alone makes a private authority trusted, and a certificate it signed that has expired is still refused', () => {
  expect(statusesOf(reportOf(command, 'private-ca-1'))).toMatchObject(Object.fromEntries(SELECTED.map((id) => [id, 'passed'])));
  const expired = reportOf(command, 'certificate-expired-1');
  expect(expired.verdict).toBe('error');
  expect(expired.errors.join('\n')).toContain('expired');
});
